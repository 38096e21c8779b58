import { Injectable } from '@nestjs/common';
import { StageWorkerFactory, StageWorkers } from '@precis/service';
import { RETRIEVAL_STAGES, RETRIEVAL_TASK_HANDLERS } from './retrieval.handlers.js';

// Pulls this service's stage queue(s), for the application's lifetime (see StageWorkers).
@Injectable()
export class RetrievalConsumer extends StageWorkers {
  constructor(factory: StageWorkerFactory) {
    super(RETRIEVAL_STAGES.map((stage) => factory.create(stage, RETRIEVAL_TASK_HANDLERS)));
  }
}
