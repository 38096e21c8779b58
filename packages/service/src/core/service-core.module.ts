import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Bus } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import { DataSource } from 'typeorm';
import { BusProblemsReporter } from '../health/bus-problems.reporter.js';
import { HealthController } from '../health/health.controller.js';
import { HEALTH_SETTINGS, type HealthSettings } from '../health/health-settings.js';
import { ReadinessService } from '../health/readiness.service.js';
import type { ServiceLogger } from '../logging/create-logger.js';
import { MetricsController } from '../metrics/metrics.controller.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { ShutdownState } from '../shutdown/shutdown-state.js';
import { type BusSettings, connectBus, connectDatabase, type DatabaseSettings } from './connections.js';
import { BUS, SERVICE_CONFIG, SERVICE_INFO, SERVICE_LOGGER, type ServiceInfo } from './tokens.js';

export interface ServiceCoreContext {
  info: ServiceInfo;
  config: object;
  logger: ServiceLogger;
  metrics: MetricsRegistry;
  database: DatabaseSettings;
  bus: BusSettings;
  // Work queues this service declares at startup (idempotent).
  stages: Stage[];
  readyCheckTimeoutMs: number;
}

// Closes the connections last, after every consumer stopped (onModuleDestroy) and the servers
// closed: in-flight work can still write its result and ack while the app winds down.
@Injectable()
class ConnectionsLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    try {
      await this.bus.close();
      this.logger.info('bus closed');
    } finally {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
      this.logger.info('database closed');
    }
  }
}

// Everything a service shares: config, logger, metrics, DB, bus, health. Global, so app modules
// inject DataSource, BUS, SERVICE_CONFIG... without importing anything.
@Global()
@Module({})
export class ServiceCoreModule {
  static forRoot(ctx: ServiceCoreContext): DynamicModule {
    const providers: Provider[] = [
      { provide: SERVICE_CONFIG, useValue: ctx.config },
      { provide: SERVICE_INFO, useValue: ctx.info },
      { provide: SERVICE_LOGGER, useValue: ctx.logger },
      { provide: MetricsRegistry, useValue: ctx.metrics },
      {
        provide: HEALTH_SETTINGS,
        useValue: { checkTimeoutMs: ctx.readyCheckTimeoutMs, stages: ctx.stages } satisfies HealthSettings,
      },
      ShutdownState,
      { provide: DataSource, useFactory: () => connectDatabase(ctx.database, ctx.logger) },
      {
        provide: BUS,
        useFactory: async () => {
          const bus = await connectBus(ctx.bus, ctx.logger);
          try {
            for (const stage of ctx.stages) await bus.ensureQueue(stage);
          } catch (err) {
            await bus.close().catch(() => {});
            throw err;
          }
          return bus;
        },
      },
      ReadinessService,
      BusProblemsReporter,
      ConnectionsLifecycle,
    ];
    return {
      module: ServiceCoreModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, MetricsController],
      providers,
      exports: [
        SERVICE_CONFIG,
        SERVICE_INFO,
        SERVICE_LOGGER,
        MetricsRegistry,
        ShutdownState,
        DataSource,
        BUS,
        ReadinessService,
      ],
    };
  }
}
