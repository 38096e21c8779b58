import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Bus, ConsumerHandle } from '@precis/bus';
import {
  BUS,
  MetricsRegistry,
  SERVICE_CONFIG,
  SERVICE_LOGGER,
  type ServiceLogger,
  StageWorkerFactory,
  startRunStageConsumers,
} from '@precis/service';
import { DataSource } from 'typeorm';
import type { VerifierConfig } from '../config/verifier.env.js';
import { VERIFICATION_STAGES } from './verification.handlers.js';

// Pulls this service's run stage queue(s). On shutdown it stops pulling, lets in-flight tasks
// finish, persist and ack, then the connections close (ServiceCoreModule closes them last).
@Injectable()
export class VerificationConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private handles: ConsumerHandle[] = [];
  private readonly log: ServiceLogger;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) private readonly config: VerifierConfig,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
    private readonly metrics: MetricsRegistry,
    private readonly factory: StageWorkerFactory,
  ) {
    this.log = logger.child({ component: 'run-worker' });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.handles = await startRunStageConsumers({
      stages: VERIFICATION_STAGES,
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
    await Promise.all(handles.map((h) => h.stop()));
    this.log.info('stopped');
  }
}
