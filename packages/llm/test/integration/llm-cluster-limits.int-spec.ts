// Limits held for the whole cluster in PostgreSQL (PgSharedLimits): several limiter registries,
// as several processes would have, share one endpoint's concurrency and requests per minute.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { LimiterRegistry, LlmClient, loadModelRegistry, PgSharedLimits } from '../../src/index.js';
import { user } from './helpers.js';

describe('cluster-wide model limits (PostgreSQL)', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let server: FakeLlmServer;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('llm_cluster_limits');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    server = await startFakeLlmServer({ latencyMs: 150, capacity: 256 });
  });

  afterAll(async () => {
    await server?.close();
    await db?.destroy();
    await tdb?.drop();
  });

  const clients = (n: number, model: Record<string, unknown>) => {
    const registry = loadModelRegistry({
      models: { m: { baseURL: server.baseURL, model: 'fake', ...model } },
    });
    // Each its own process-wide registry: only the database is shared.
    return Array.from(
      { length: n },
      () =>
        new LlmClient({
          registry,
          limiters: new LimiterRegistry(new PgSharedLimits(db, { pollMs: 5 })),
          cacheEnabled: false,
        }),
    );
  };

  it('four processes with maxConcurrency 8 each never have more than 8 requests open together', async () => {
    server.resetStats();
    const four = clients(4, { maxConcurrency: 8 });
    await Promise.all(
      Array.from({ length: 96 }, (_, i) => four[i % 4]!.chat({ model: 'm', messages: user(`c${i}`) })),
    );
    expect(server.stats().completedChats).toBe(96);
    expect(server.stats().maxInFlight).toBe(8);
    // Releases are sent after each response without holding the caller: all land shortly.
    let held = -1;
    for (let i = 0; i < 50 && held !== 0; i++) {
      if (i) await new Promise((r) => setTimeout(r, 20));
      held = (await db.query(`SELECT COUNT(*)::int AS n FROM llm_slots WHERE holder IS NOT NULL`))[0].n;
    }
    expect(held).toBe(0);
  });

  it('holds requests per minute for the cluster: the 11th of 10/min waits for the next minute', async () => {
    const [window] = await db.query(
      `SELECT EXTRACT(EPOCH FROM (date_trunc('minute', now()) + interval '1 minute' - now())) AS s`,
    );
    // Not across a minute boundary: the test's ten requests must share one window.
    if (Number(window.s) < 5) await new Promise((r) => setTimeout(r, Number(window.s) * 1000 + 200));
    const two = clients(2, { maxConcurrency: 16, requestsPerMinute: 10 });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => two[i % 2]!.chat({ model: 'm', messages: user(`r${i}`) })),
    );
    const [row] = await db.query(
      `SELECT requests FROM llm_rate_windows WHERE window_start = date_trunc('minute', now())`,
    );
    expect(row.requests).toBe(10);
    const abort = new AbortController();
    const late = two[0]!.chat({ model: 'm', messages: user('late'), signal: abort.signal });
    await new Promise((r) => setTimeout(r, 300));
    abort.abort();
    await expect(late).rejects.toThrow();
    expect(server.requests().some((r) => JSON.stringify(r.body).includes('late'))).toBe(false);
  });
});
