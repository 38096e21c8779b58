// bootstrapService in-process against the real PostgreSQL and NATS: readiness with its checks,
// readiness turning 503 as soon as a shutdown starts (while in-flight work drains), metrics, and
// the order of the shutdown (work first, connections last).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { createNatsBus } from '@precis/bus';
import { createThrowawayDatabase, databaseStatements, type ThrowawayDatabase } from '@precis/db';
import { DataSource } from 'typeorm';
import { commonEnv } from '../../src/config/common-env.js';
import { bootstrapService, type RunningService } from '../../src/core/bootstrap-service.js';
import { freePort } from '../support/service-process.js';

const ENV = commonEnv({ httpPort: 1 });
const events: string[] = [];
let releaseWork: () => void = () => {};

// Stands for a consumer with a task in flight: its onModuleDestroy resolves when the work is done.
@Injectable()
class SlowWork implements OnModuleDestroy {
  constructor(readonly dataSource: DataSource) {}

  onModuleDestroy(): Promise<void> {
    events.push('work: draining');
    return new Promise((resolve) => {
      releaseWork = () => {
        events.push(`work: done (db open: ${this.dataSource.isInitialized})`);
        resolve();
      };
    });
  }
}

@Module({ providers: [SlowWork] })
class TestAppModule {}

describe('bootstrapService (in-process, PostgreSQL + NATS)', () => {
  const prefix = `int_boot_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let svc: RunningService<typeof ENV>;
  let base: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase('int_bootstrap_service');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    svc = await bootstrapService(TestAppModule, {
      name: 'test-service',
      packageJson: new URL('../../package.json', import.meta.url),
      env: ENV,
      stages: ['retrieve'],
      handleSignals: false,
      processEnv: {
        DATABASE_URL: db.url,
        NATS_URL: process.env.NATS_URL,
        PRECIS_BUS_PREFIX: prefix,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        LOG_LEVEL: 'silent',
      },
    });
  }, 60_000);

  afterAll(async () => {
    releaseWork();
    await svc?.shutdown('test end');
    const admin = await createNatsBus({ prefix });
    await admin.deleteStreams();
    await admin.close();
    await db?.drop();
  }, 60_000);

  it('is live and ready, with database and NATS checks up', async () => {
    const live = await fetch(`${base}/health/live`);
    expect(await live.json()).toMatchObject({ status: 'ok', service: 'test-service', version: '0.1.0' });
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      details: {
        lifecycle: { status: 'up' },
        database: { status: 'up' },
        nats: { status: 'up', queue: 'retrieve' },
        queues: { status: 'up' },
      },
    });
  });

  it('serves Prometheus text on /metrics', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    expect(text).toContain('precis_service_info{service="test-service",version="0.1.0"} 1');
    // The statements this process sent (its readiness checks at least), as /metrics counts them.
    const sent = Number(/^precis_db_statements_total (\d+)$/m.exec(text)?.[1]);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(databaseStatements());
  });

  it('turns not-ready once shutdown begins, drains work, then closes the connections', async () => {
    const stopping = svc.shutdown('test');
    for (let i = 0; i < 100 && !events.includes('work: draining'); i++)
      await new Promise((r) => setTimeout(r, 10));
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'error',
      error: { lifecycle: { status: 'down', message: 'shutting down (test)' } },
    });
    releaseWork();
    await stopping;
    expect(events).toEqual(['work: draining', 'work: done (db open: true)']);
    expect(svc.app.get(DataSource).isInitialized).toBe(false);
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  });
});
