import { Module } from '@nestjs/common';
import { STAGE_QUEUES, StageConsumer } from '@precis/service';
import { SUMMARIZATION_STAGES } from './summarization.handlers.js';

@Module({ providers: [{ provide: STAGE_QUEUES, useValue: SUMMARIZATION_STAGES }, StageConsumer] })
export class SummarizationModule {}
