import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import { DataSource } from 'typeorm';
import type { WorkerEnvSchema } from '../config/common-env.js';
import type { EnvConfig } from '../config/env-schema.js';
import { BUS, SERVICE_CONFIG, SERVICE_LOGGER } from '../core/tokens.js';
import type { ServiceLogger } from '../logging/create-logger.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { StageWorker, type TaskHandler } from './stage-worker.js';

// Builds stage workers with the service's connections and its WORKER_*/TASK_* settings.
@Injectable()
export class StageWorkerFactory {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
    private readonly metrics: MetricsRegistry,
    @Inject(SERVICE_CONFIG) private readonly config: object,
  ) {}

  create(stage: Stage, handlers: readonly TaskHandler[]): StageWorker {
    const c = this.config as Partial<EnvConfig<WorkerEnvSchema>>;
    if (
      c.WORKER_CONCURRENCY === undefined ||
      c.TASK_MAX_DELIVER === undefined ||
      c.TASK_RETRY_DELAYS_MS === undefined ||
      c.TASK_ACK_WAIT_MS === undefined
    ) {
      throw new Error(`cannot create the ${stage} worker: the service's env schema must include workerEnv()`);
    }
    return new StageWorker(
      { bus: this.bus, dataSource: this.dataSource, logger: this.logger, metrics: this.metrics },
      {
        stage,
        handlers,
        concurrency: c.WORKER_CONCURRENCY,
        maxDeliver: c.TASK_MAX_DELIVER,
        backoffMs: c.TASK_RETRY_DELAYS_MS,
        ackWaitMs: c.TASK_ACK_WAIT_MS,
      },
    );
  }
}
