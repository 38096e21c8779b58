import { Module } from '@nestjs/common';
import { STAGE_QUEUES, StageConsumer } from '@precis/service';
import { SCORING_STAGES } from './scoring.handlers.js';

@Module({ providers: [{ provide: STAGE_QUEUES, useValue: SCORING_STAGES }, StageConsumer] })
export class ScoringModule {}
