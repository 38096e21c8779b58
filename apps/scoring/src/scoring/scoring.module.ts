import { Module } from '@nestjs/common';
import { RUN_STAGES, RunStageConsumer } from '@precis/service';
import { SCORING_RUN_STAGES } from './scoring.handlers.js';
import { ScoringKitWorkers } from './scoring-kit.workers.js';

@Module({
  providers: [ScoringKitWorkers, { provide: RUN_STAGES, useValue: SCORING_RUN_STAGES }, RunStageConsumer],
})
export class ScoringModule {}
