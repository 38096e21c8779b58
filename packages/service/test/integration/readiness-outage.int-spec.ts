// A service's readiness across a NATS outage: not ready while the bus is disconnected (the
// client keeps reconnecting), ready again once the server is back, with no restart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { startThrowawayNats, type ThrowawayNats } from '@precis/testing';
import { commonEnv } from '../../src/config/common-env.js';
import { bootstrapService, type RunningService } from '../../src/core/bootstrap-service.js';
import { freePort } from '../support/service-process.js';

const ENV = commonEnv({ httpPort: 1 });

@Module({})
class EmptyAppModule {}

async function readiness(base: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/health/ready`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('service readiness across a NATS outage', () => {
  let nats: ThrowawayNats;
  let db: ThrowawayDatabase;
  let svc: RunningService<typeof ENV>;
  let base: string;

  beforeAll(async () => {
    nats = await startThrowawayNats();
    db = await createThrowawayDatabase('int_readiness_outage');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    svc = await bootstrapService(EmptyAppModule, {
      name: 'outage-service',
      packageJson: new URL('../../package.json', import.meta.url),
      env: ENV,
      stages: ['retrieve'],
      handleSignals: false,
      processEnv: {
        DATABASE_URL: db.url,
        NATS_URL: nats.url,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        LOG_LEVEL: 'silent',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await svc?.shutdown('test end');
    await nats?.dispose();
    await db?.drop();
  }, 60_000);

  it('is not ready while NATS is down and ready again after it restarts', async () => {
    expect((await readiness(base)).status).toBe(200);
    await nats.stop();
    const down = await until('not ready', async () => {
      const r = await readiness(base);
      return r.status === 503 ? r : undefined;
    });
    expect(down.body).toMatchObject({
      status: 'error',
      error: { nats: { status: 'down', message: 'disconnected from NATS; reconnecting' } },
      info: { database: { status: 'up' } },
    });
    await nats.start();
    const up = await until('ready again', async () => {
      const r = await readiness(base);
      return r.status === 200 ? r : undefined;
    });
    expect(up.body).toMatchObject({ status: 'ok', details: { nats: { status: 'up', queue: 'retrieve' } } });
  });
});
