import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { StageWorker } from './stage-worker.js';

// A service's stage workers with the application's lifetime: they start pulling their queues once
// the application is up; on shutdown they stop pulling, let in-flight tasks finish and ack, and
// only then do the connections close. A consumer extends it with the workers it built.
export abstract class StageWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  protected constructor(private readonly workers: readonly StageWorker[]) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const worker of this.workers) await worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }
}
