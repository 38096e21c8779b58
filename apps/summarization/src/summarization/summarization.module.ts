import { Module } from '@nestjs/common';
import { RUN_STAGES, RunStageConsumer } from '@precis/service';
import { SUMMARIZATION_STAGES } from './summarization.handlers.js';

@Module({ providers: [{ provide: RUN_STAGES, useValue: SUMMARIZATION_STAGES }, RunStageConsumer] })
export class SummarizationModule {}
