import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type StageWorker, StageWorkerFactory } from '@precis/service';
import { SUMMARIZATION_STAGES, SUMMARIZATION_TASK_HANDLERS } from './summarization.handlers.js';

// Pulls this service's stage queue(s). On shutdown it stops pulling, lets in-flight tasks finish
// and ack, then the connections close.
@Injectable()
export class SummarizationConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly workers: StageWorker[];

  constructor(factory: StageWorkerFactory) {
    this.workers = SUMMARIZATION_STAGES.map((stage) => factory.create(stage, SUMMARIZATION_TASK_HANDLERS));
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const worker of this.workers) await worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }
}
