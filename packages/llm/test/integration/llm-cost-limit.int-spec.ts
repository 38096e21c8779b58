import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { FakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  type ChatResult,
  CostLimitError,
  costUnits,
  createTypeOrmLlmStore,
  formatCost,
  type LlmClient,
  parseCost,
} from '../../src/index.js';
import { createRun, ledgerOf, MAX_TOKENS, PRICES, question, RESERVE_UNITS } from './cost-limit-helpers.js';
import { setup } from './helpers.js';

// A call's reserved cost is committed against its run's limit before the request goes out, in the
// database (run_costs, kept by a trigger on llm_calls), so concurrent callers cannot overshoot.
function costLimitSuite(name: string, open: () => Promise<{ ds: DataSource; cleanup: () => Promise<void> }>) {
  describe(`cost limit on ${name}`, () => {
    let ds: DataSource;
    let cleanup: () => Promise<void>;
    let server: FakeLlmServer;
    let client: LlmClient;

    beforeAll(async () => {
      ({ ds, cleanup } = await open());
      // Every answer takes a while: all reservations are made before any call settles.
      ({ server, client } = await setup(
        { latencyMs: 1500 },
        { ...PRICES, maxConcurrency: 16 },
        createTypeOrmLlmStore(ds),
      ));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await ds?.destroy();
      await cleanup?.();
    });

    it('16 concurrent callers: the calls that fit go out, the rest get CostLimitError and send nothing', async () => {
      // Room for 5 reservations and a half.
      const limit = formatCost((RESERVE_UNITS * 11n) / 2n);
      const runId = await createRun(ds, limit);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) =>
          client.chat({
            model: 'chat',
            messages: question(i),
            maxTokens: MAX_TOKENS,
            runId,
            taskId: `t${i}`,
          }),
        ),
      );
      const done = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as CostLimitError] : []));
      expect([done.length, refused.length]).toEqual([5, 11]);
      expect(server.stats().completedChats).toBe(5);
      for (const e of refused) {
        expect(e).toBeInstanceOf(CostLimitError);
        expect(e).toMatchObject({
          runId,
          model: 'chat',
          limitUsd: limit,
          reserveUsd: formatCost(RESERVE_UNITS),
        });
        expect(e.message).toMatch(
          new RegExp(
            `^run ${runId}: a call to model "chat" needs \\$0\\.000089 reserved, but \\$0\\.000\\d+ of the run's \\$0\\.0004895 cost limit is already committed; nothing was sent`,
          ),
        );
      }
      // Settled at their real cost (below the reservation): the counter follows the ledger.
      const actual = done.reduce((sum: bigint, r: ChatResult) => sum + parseCost(r.costUsd), 0n);
      expect(actual).toBe(
        done.reduce(
          (s, r) => s + costUnits(r.usage.promptTokens, r.usage.completionTokens, 10_000n, 20_000n),
          0n,
        ),
      );
      expect(await ledgerOf(ds, runId)).toEqual({
        rows: 5,
        cost: formatCost(actual),
        sent: 0,
        committed: formatCost(actual),
      });
      expect(actual <= parseCost(limit)).toBe(true);
    }, 60_000);

    it('a run without a limit, and a call without a run, are never refused; cache hits commit nothing', async () => {
      const runId = await createRun(ds, null);
      const r = await client.chat({ model: 'chat', messages: question(99), maxTokens: MAX_TOKENS, runId });
      const hit = await client.chat({ model: 'chat', messages: question(99), maxTokens: MAX_TOKENS, runId });
      await client.chat({ model: 'chat', messages: question(98), maxTokens: MAX_TOKENS });
      expect(hit.cached).toBe(true);
      // No limit, no counter: its ledger writes never wait on one.
      expect(await ledgerOf(ds, runId)).toEqual({ rows: 2, cost: r.costUsd, sent: 0, committed: null });
    }, 30_000);
  });
}

costLimitSuite('PostgreSQL', async () => {
  const db: ThrowawayDatabase = await createThrowawayDatabase('precis_llm_cost_limit');
  const ds = await createDataSource({ url: db.url });
  return { ds, cleanup: () => db.drop() };
});

costLimitSuite('PGlite in memory', async () => {
  const ds = await createDataSource({ inMemory: true });
  return { ds, cleanup: async () => {} };
});
