import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type StageWorker, StageWorkerFactory } from '@precis/service';
import { SCORING_KIT_STAGES, SCORING_TASK_HANDLERS } from './scoring.handlers.js';

// The scoring service's service-kit stages (beside its run stage, which RunStageConsumer pulls):
// started with the application, stopped on shutdown after their in-flight tasks finish.
@Injectable()
export class ScoringKitWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly workers: StageWorker[];

  constructor(factory: StageWorkerFactory) {
    this.workers = SCORING_KIT_STAGES.map((stage) => factory.create(stage, SCORING_TASK_HANDLERS));
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const worker of this.workers) await worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}
