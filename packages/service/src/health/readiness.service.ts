import { Inject, Injectable } from '@nestjs/common';
import { type HealthIndicatorFunction, HealthIndicatorService } from '@nestjs/terminus';
import type { Bus } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import { DataSource } from 'typeorm';
import { BUS, SERVICE_LOGGER } from '../core/tokens.js';
import type { ServiceLogger } from '../logging/create-logger.js';
import { ShutdownState } from '../shutdown/shutdown-state.js';
import { pingDatabase } from './database.store.js';
import { HEALTH_SETTINGS, type HealthSettings } from './health-settings.js';

// An extra readiness condition an app adds (e.g. "gRPC server listening").
export interface ReadinessCheck {
  name: string;
  check(signal: AbortSignal): Promise<Record<string, unknown> | undefined>;
}

// Ready = the service can do its job now: PostgreSQL answers SELECT 1, NATS answers a JetStream
// API request on the service's own queue, no stage queue's publishes or pulls keep failing
// (Bus.problems()), no shutdown has begun, and every app check passes.
@Injectable()
export class ReadinessService {
  private readonly extra: ReadinessCheck[] = [];
  private lastReady: boolean | null = null;

  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
    private readonly shutdown: ShutdownState,
    @Inject(HEALTH_SETTINGS) private readonly settings: HealthSettings,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  register(check: ReadinessCheck): void {
    this.extra.push(check);
  }

  indicators(): HealthIndicatorFunction[] {
    const timeout = this.settings.checkTimeoutMs;
    const probeStage: Stage | undefined = this.settings.stages[0];
    const fns: HealthIndicatorFunction[] = [
      () =>
        this.shutdown.shuttingDown
          ? this.indicator.check('lifecycle').down({ message: `shutting down (${this.shutdown.why})` })
          : this.indicator.check('lifecycle').up(),
      () =>
        this.indicator
          .check('database')
          .attempt(async () => {
            await pingDatabase(this.dataSource);
          })
          .withTimeout(timeout),
      () =>
        this.indicator
          .check('nats')
          .attempt(async () => {
            // Known without a round trip, and a request would wait for the reconnect.
            if (!this.bus.isConnected()) throw new Error('disconnected from NATS; reconnecting');
            // A JetStream API round trip: proves both the connection and JetStream.
            if (probeStage) return { queue: probeStage, pending: await this.bus.pending(probeStage) };
            return undefined;
          })
          .withTimeout(timeout),
      // Recorded as publishes and pulls happen (no round trip): a stage queue that keeps failing.
      () => {
        const problems = this.bus.problems();
        if (problems.length === 0) return this.indicator.check('queues').up();
        return this.indicator.check('queues').down({
          message: problems.map((p) => `${p.summary} (for ${Math.round(p.failingMs / 1000)} s)`).join('; '),
        });
      },
    ];
    for (const check of this.extra) {
      fns.push(() =>
        this.indicator
          .check(check.name)
          .attempt(async ({ signal }) => (await check.check(signal)) ?? undefined)
          .withTimeout(timeout),
      );
    }
    return fns;
  }

  // Logs transitions only: probes arrive every few seconds and must not flood the logs.
  recordOutcome(ready: boolean, details: unknown): void {
    if (ready === this.lastReady) return;
    const first = this.lastReady === null;
    this.lastReady = ready;
    if (ready) this.logger.info('service is ready');
    else if (!first || !this.shutdown.shuttingDown) this.logger.warn({ details }, 'service is not ready');
  }
}
