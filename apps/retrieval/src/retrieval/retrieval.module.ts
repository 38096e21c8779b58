import { Module } from '@nestjs/common';
import { STAGE_QUEUES, StageConsumer } from '@precis/service';
import { RETRIEVAL_STAGES } from './retrieval.handlers.js';

@Module({ providers: [{ provide: STAGE_QUEUES, useValue: RETRIEVAL_STAGES }, StageConsumer] })
export class RetrievalModule {}
