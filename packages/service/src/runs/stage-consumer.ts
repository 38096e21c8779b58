import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import type { Bus, ConsumerHandle } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import type { FamilyRegistry, JobHandler } from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import type { Level } from 'pino';
import { DataSource } from 'typeorm';
import { BUS, SERVICE_CONFIG, SERVICE_LOGGER, WORKER_LOG_LEVEL } from '../core/tokens.js';
import { type ServiceLogger, workerLogger } from '../logging/create-logger.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { FAMILIES } from './families.js';
import { clusterLimiters } from './run-context.js';
import { type StageConsumerConfig, startStageConsumers } from './start-stage-consumers.js';

// The stage queues a service's StageConsumer pulls: `{ provide: STAGE_QUEUES, useValue: [...] }`.
export const STAGE_QUEUES = Symbol.for('precis.service.stage-queues');
// The service's jobs (task kinds outside any run), e.g. the ingestion service's dataset import.
export const JOB_HANDLERS = Symbol.for('precis.service.job-handlers');

// Pulls a service's stage queue(s) once the application is up. On shutdown it stops pulling,
// lets in-flight tasks finish, persist and ack, hands back the model slots it kept for reuse, then
// the connections close (ServiceCoreModule closes them last).
@Injectable()
export class StageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private handles: ConsumerHandle[] = [];
  private readonly log: ServiceLogger;

  constructor(
    @Inject(STAGE_QUEUES) private readonly stages: readonly Stage[],
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: StageConsumerConfig,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    private readonly metrics: MetricsRegistry,
    @Optional() @Inject(FAMILIES) private readonly families?: FamilyRegistry,
    @Optional() @Inject(JOB_HANDLERS) private readonly jobs?: readonly JobHandler[],
    @Optional() @Inject(WORKER_LOG_LEVEL) level?: Level,
  ) {
    this.log = workerLogger(logger, level);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.handles = await startStageConsumers({
      stages: this.stages,
      bus: this.bus,
      dataSource: this.dataSource,
      config: this.config,
      logger: this.log,
      metrics: this.metrics,
      families: this.families ?? loadedFamilies(),
      jobs: this.jobs,
    });
  }

  async onModuleDestroy(): Promise<void> {
    const handles = this.handles;
    this.handles = [];
    this.log.info('stopping: no new tasks, finishing in-flight ones');
    await Promise.all(handles.map((h) => h.stop()));
    await clusterLimiters(this.dataSource).close();
    this.log.info('stopped');
  }
}
