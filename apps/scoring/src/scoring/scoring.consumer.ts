import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Bus, ConsumerHandle } from '@precis/bus';
import {
  BUS,
  MetricsRegistry,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  type ServiceLogger,
  type StageWorker,
  StageWorkerFactory,
  startRunStageConsumers,
} from '@precis/service';
import { DataSource } from 'typeorm';
import type { ScoringConfig } from '../config/scoring.env.js';
import { SCORING_KIT_STAGES, SCORING_RUN_STAGES, SCORING_TASK_HANDLERS } from './scoring.handlers.js';

// Pulls this service's run stage queue(s). On shutdown it stops pulling, lets in-flight tasks
// finish, persist and ack, then the connections close (ServiceCoreModule closes them last).
@Injectable()
export class ScoringConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private handles: ConsumerHandle[] = [];
  private readonly kitWorkers: StageWorker[];
  private readonly log: ServiceLogger;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: ScoringConfig,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    private readonly metrics: MetricsRegistry,
    private readonly factory: StageWorkerFactory,
  ) {
    this.log = logger.child({ component: 'run-worker' });
    this.kitWorkers = SCORING_KIT_STAGES.map((stage) => factory.create(stage, SCORING_TASK_HANDLERS));
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const worker of this.kitWorkers) await worker.start();
    this.handles = await startRunStageConsumers({
      stages: SCORING_RUN_STAGES,
      bus: this.bus,
      dataSource: this.dataSource,
      config: this.config,
      logger: this.log,
      metrics: this.metrics,
      factory: this.factory,
    });
  }

  async onModuleDestroy(): Promise<void> {
    const handles = this.handles;
    this.handles = [];
    this.log.info('stopping: no new tasks, finishing in-flight ones');
    await Promise.all([...handles.map((h) => h.stop()), ...this.kitWorkers.map((w) => w.stop())]);
    this.log.info('stopped');
  }
}
