import { Injectable } from '@nestjs/common';
import { StageWorkerFactory, StageWorkers } from '@precis/service';
import { SCORING_KIT_STAGES, SCORING_TASK_HANDLERS } from './scoring.handlers.js';

// The scoring service's service-kit stages (beside its run stage, which RunStageConsumer pulls),
// for the application's lifetime (see StageWorkers).
@Injectable()
export class ScoringKitWorkers extends StageWorkers {
  constructor(factory: StageWorkerFactory) {
    super(SCORING_KIT_STAGES.map((stage) => factory.create(stage, SCORING_TASK_HANDLERS)));
  }
}
