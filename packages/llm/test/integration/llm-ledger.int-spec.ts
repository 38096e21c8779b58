import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { FakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  costUnits,
  createTypeOrmLlmStore,
  formatCost,
  LlmClient,
  parsePrice,
  sampleTemplateVersion,
} from '../../src/index.js';
import { setup, user } from './helpers.js';

const RUN = '11111111-1111-4111-8111-111111111111';
const OTHER_RUN = '22222222-2222-4222-8222-222222222222';

// Same scenario on both engines: many calls with awkward token counts and prices whose float
// sums drift; the SQL sums must equal the exact bigint sums of what the client reported.
function ledgerSuite(name: string, open: () => Promise<{ ds: DataSource; cleanup: () => Promise<void> }>) {
  describe(`LLM ledger on ${name}`, () => {
    let ds: DataSource;
    let cleanup: () => Promise<void>;
    let server: FakeLlmServer;
    let client: LlmClient;

    beforeAll(async () => {
      ({ ds, cleanup } = await open());
      ({ server, client } = await setup(
        { latencyMs: 1 },
        { pricePer1MInput: '0.1', pricePer1MOutput: '0.7', maxConcurrency: 8 },
        createTypeOrmLlmStore(ds),
      ));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await ds?.destroy();
      await cleanup?.();
    });

    it('sums tokens and cost exactly, per run', async () => {
      let expectedUnits = 0n;
      let tokensIn = 0;
      let tokensOut = 0;
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          client.chat({
            model: 'chat',
            messages: user(`question ${'word '.repeat(i % 7)}${i}`),
            runId: i % 3 === 0 ? OTHER_RUN : RUN,
            taskId: `t${i}`,
          }),
        ),
      );
      for (const [i, r] of results.entries()) {
        if (i % 3 === 0) continue;
        tokensIn += r.usage.promptTokens;
        tokensOut += r.usage.completionTokens;
        expectedUnits += costUnits(
          r.usage.promptTokens,
          r.usage.completionTokens,
          parsePrice('0.1')!,
          parsePrice('0.7')!,
        );
      }
      const totals = await client.store.totals({ runId: RUN });
      expect(totals).toEqual({
        calls: 40,
        cacheHits: 0,
        errors: 0,
        sent: 0,
        tokensIn,
        tokensOut,
        costUsd: formatCost(expectedUnits),
      });
      // The server's own count of tokens agrees with the ledger over both runs.
      const all = await client.store.totals();
      expect(all.tokensIn).toBe(server.stats().promptTokens);
      expect(all.tokensOut).toBe(server.stats().completionTokens);
      const [row] = await ds.query(`SELECT sum(cost_usd)::text AS s FROM llm_calls WHERE run_id = $1`, [RUN]);
      expect(row.s.replace(/0+$/, '')).toBe(formatCost(expectedUnits).replace(/0+$/, ''));
    });

    it('persists the cache: a new client on the same database makes no HTTP request', async () => {
      const req = { model: 'chat', messages: user('persist me'), templateVersion: 'verify@3', runId: RUN };
      const first = await client.chat(req);
      const again = await setup({}, {}, createTypeOrmLlmStore(ds));
      try {
        const second = await again.client.chat(req);
        expect(second).toMatchObject({ cached: true, text: first.text, costUsd: '0.0000000000' });
        expect(again.server.stats().total).toBe(0);
      } finally {
        await again.server.close();
      }
      const [hit] = await ds.query(
        `SELECT cache_hit, response, tokens_in, cost_usd::text AS cost FROM llm_calls WHERE cache_key = $1 AND cache_hit`,
        [first.cacheKey],
      );
      expect(hit).toMatchObject({ cache_hit: true, response: null, tokens_in: first.usage.promptTokens });
      expect(Number(hit.cost)).toBe(0);
    });

    it('samples a prompt n times: one call and one cache entry per sample, served back per sample', async () => {
      const req = {
        model: 'chat',
        messages: user('rate this summary'),
        templateVersion: 'judge@2',
        temperature: 1,
        runId: RUN,
        taskId: 'sampled',
      };
      const before = server.stats().total;
      const first = await client.chatSamples(req, 5);
      expect(server.stats().total - before).toBe(5);
      expect(first.map((r) => r.cached)).toEqual([false, false, false, false, false]);
      // Each sample has the key a single call with that sample's template version would have.
      const single = await client.chat({ ...req, templateVersion: sampleTemplateVersion('judge@2', 3) });
      expect(single).toMatchObject({ cached: true, cacheKey: first[3]!.cacheKey });
      expect(new Set(first.map((r) => r.cacheKey)).size).toBe(5);
      // A new client on the same database: all five from the cache, with no HTTP request, and a
      // cache-hit ledger row for each.
      const again = await setup({}, {}, createTypeOrmLlmStore(ds));
      try {
        const second = await again.client.chatSamples(req, 5);
        expect(second.map((r) => r.cached)).toEqual([true, true, true, true, true]);
        expect(second.map((r) => r.text)).toEqual(first.map((r) => r.text));
        expect(again.server.stats().total).toBe(0);
      } finally {
        await again.server.close();
      }
      // Misses: a row per sample. The second client's five hits: ONE row counting five calls,
      // naming the cache entries that answered. The single chat() hit: a row of its own.
      const rows: { template_version: string; cache_hit: boolean; calls: number; request: unknown }[] =
        await ds.query(
          `SELECT template_version, cache_hit, calls, request FROM llm_calls WHERE task_id = 'sampled'
            ORDER BY cache_hit, template_version`,
        );
      expect(rows.filter((r) => !r.cache_hit).map((r) => [r.template_version, r.calls])).toEqual(
        [0, 1, 2, 3, 4].map((k) => [`judge@2#sample-${k}`, 1]),
      );
      expect(rows.filter((r) => r.cache_hit)).toEqual([
        {
          template_version: 'judge@2',
          cache_hit: true,
          calls: 5,
          request: { cachedAs: first.map((r) => r.cacheKey), samples: [0, 1, 2, 3, 4] },
        },
        {
          template_version: 'judge@2#sample-3',
          cache_hit: true,
          calls: 1,
          request: { cachedAs: first[3]!.cacheKey },
        },
      ]);
      const totals = await client.store.totals({ runId: RUN });
      const [sums] = await ds.query(
        `SELECT COALESCE(SUM(calls), 0)::int AS calls, COALESCE(SUM(calls) FILTER (WHERE cache_hit), 0)::int AS hits
           FROM llm_calls WHERE run_id = $1`,
        [RUN],
      );
      expect({ calls: totals.calls, hits: totals.cacheHits }).toEqual(sums);
      await expect(client.chatSamples(req, 0)).rejects.toThrow(/positive integer sample count/);
    });

    it('samples with part of the set cached: only the missing samples go out', async () => {
      const req = {
        model: 'chat',
        messages: user('partly cached'),
        templateVersion: 'judge@3',
        runId: RUN,
        taskId: 'partial',
      };
      for (const k of [1, 3])
        await client.chat({ ...req, templateVersion: sampleTemplateVersion('judge@3', k) });
      const before = server.stats().total;
      const results = await client.chatSamples(req, 4);
      expect(server.stats().total - before).toBe(2);
      expect(results.map((r) => r.cached)).toEqual([false, true, false, true]);
      const rows: {
        template_version: string;
        cache_hit: boolean;
        calls: number;
        samples: number[] | null;
      }[] = await ds.query(
        `SELECT template_version, cache_hit, calls, request->'samples' AS samples FROM llm_calls
            WHERE task_id = 'partial' ORDER BY cache_hit, template_version`,
      );
      expect(rows.map((r) => [r.template_version, r.cache_hit, r.calls, r.samples])).toEqual([
        ['judge@3#sample-0', false, 1, null],
        ['judge@3#sample-1', false, 1, null],
        ['judge@3#sample-2', false, 1, null],
        ['judge@3#sample-3', false, 1, null],
        ['judge@3', true, 2, [1, 3]],
      ]);
    });

    it('records failures with attempts and error, and the batching store writes the same rows', async () => {
      server.injectFault({ kind: 'server-error' }, 4);
      await expect(
        client.chat({ model: 'chat', messages: user('fail'), runId: OTHER_RUN, taskId: 'bad' }),
      ).rejects.toThrow(/500/);
      const [row] = await ds.query(
        `SELECT attempts, error, response, tokens_in FROM llm_calls WHERE task_id = 'bad'`,
      );
      expect(row).toMatchObject({ attempts: 4, response: null, tokens_in: 0 });
      expect(row.error).toMatch(/LlmHttpError/);

      const batched = createTypeOrmLlmStore(ds, { batch: { maxRows: 7, maxDelayMs: 20 } });
      const b = await setup({}, { pricePer1MInput: '0.1', pricePer1MOutput: '0.7' }, batched);
      try {
        const batchRun = '33333333-3333-4333-8333-333333333333';
        const rs = await Promise.all(
          Array.from({ length: 25 }, (_, i) =>
            b.client.chat({ model: 'chat', messages: user(`batch ${i}`), runId: batchRun }),
          ),
        );
        // A response still in the buffer is already served from the cache.
        expect(
          (await b.client.chat({ model: 'chat', messages: user('batch 3'), runId: batchRun })).cached,
        ).toBe(true);
        await b.client.close();
        const units = rs.reduce(
          (s, r) => s + costUnits(r.usage.promptTokens, r.usage.completionTokens, 1000n, 7000n),
          0n,
        );
        expect(await batched.totals({ runId: batchRun })).toMatchObject({
          calls: 26,
          cacheHits: 1,
          costUsd: formatCost(units),
        });
      } finally {
        await b.server.close();
      }
    });
  });
}

ledgerSuite('PostgreSQL', async () => {
  const db: ThrowawayDatabase = await createThrowawayDatabase('precis_llm_ledger');
  const ds = await createDataSource({ url: db.url });
  return { ds, cleanup: () => db.drop() };
});

ledgerSuite('PGlite in memory', async () => {
  const ds = await createDataSource({ inMemory: true });
  return { ds, cleanup: async () => {} };
});
