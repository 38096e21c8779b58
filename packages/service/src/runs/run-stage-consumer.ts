import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import type { Bus, ConsumerHandle } from '@precis/bus';
import type { FamilyRegistry, RunStage } from '@precis/engine';
import { DataSource } from 'typeorm';
import { BUS, SERVICE_CONFIG, SERVICE_LOGGER } from '../core/tokens.js';
import type { ServiceLogger } from '../logging/create-logger.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { StageWorkerFactory } from '../tasks/stage-worker.factory.js';
import { builtInFamilies, FAMILIES } from './families.js';
import { type RunStageConsumerConfig, startRunStageConsumers } from './run-stage-consumers.js';

// The run stages a service's RunStageConsumer pulls: `{ provide: RUN_STAGES, useValue: [...] }`.
export const RUN_STAGES = Symbol.for('precis.service.run-stages');

// Pulls a run service's stage queue(s) (summarization, verifier, scoring). On shutdown it stops
// pulling, lets in-flight tasks finish, persist and ack, then the connections close
// (ServiceCoreModule closes them last).
@Injectable()
export class RunStageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private handles: ConsumerHandle[] = [];
  private readonly log: ServiceLogger;

  constructor(
    @Inject(RUN_STAGES) private readonly stages: readonly RunStage[],
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: RunStageConsumerConfig,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    private readonly metrics: MetricsRegistry,
    private readonly factory: StageWorkerFactory,
    @Optional() @Inject(FAMILIES) private readonly families?: FamilyRegistry,
  ) {
    this.log = logger.child({ component: 'run-worker' });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.handles = await startRunStageConsumers({
      stages: this.stages,
      bus: this.bus,
      dataSource: this.dataSource,
      config: this.config,
      logger: this.log,
      metrics: this.metrics,
      factory: this.factory,
      families: this.families ?? builtInFamilies(),
    });
  }

  async onModuleDestroy(): Promise<void> {
    const handles = this.handles;
    this.handles = [];
    this.log.info('stopping: no new tasks, finishing in-flight ones');
    await Promise.all(handles.map((h) => h.stop()));
    this.log.info('stopped');
  }
}
