// Batch mode (issue 39) end to end in one process: an Op-I judge sweep over 60 SummEval-OP
// products with limits.batch [verify] parks every judge call, sends them through the fake
// server's Batch API, and reports exactly what the same sweep reports online, at half the cost.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, parkCall } from '@precis/llm';
import { type FakeLlmServer, type FakeReplyContext, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { parkingTasksLeft } from '../../packages/engine/src/stores/batch-work.store.js';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  describeRunBatches,
  describeUsage,
  loadFullRunReport,
  RunCoordinator,
  type RunProgress,
  renderRunReport,
  runBatches,
  setRunStatus,
  startStageWorker,
  usageSoFar,
  validateSpec,
} from '../support/precis.js';

const repo = resolve(import.meta.dirname, '../..');
const SUMMEVAL_OP = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');
const PRODUCTS = 60;

// A score from the prompt alone, so that both modes get the same answers.
function judgeReply(ctx: FakeReplyContext): string {
  let h = 0;
  for (const ch of ctx.lastUser) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `The summary covers the reviews to a degree.\n<score>${1 + (h % 5)}</score>`;
}

// 60 products: the 32 of SummEval-OP, then 28 of them again with one review changed (distinct prompts).
function sixtyProducts(dir: string): string {
  const lines = readFileSync(SUMMEVAL_OP, 'utf8').trim().split('\n');
  const out = Array.from({ length: PRODUCTS }, (_, i) => {
    const p = JSON.parse(lines[i % lines.length]!) as { reviews: Record<string, string> };
    if (i >= lines.length) {
      const [first] = Object.keys(p.reviews);
      p.reviews[first!] = `${p.reviews[first!]} (Bought it again, copy ${i}.)`;
    }
    return JSON.stringify(p);
  });
  const file = join(dir, 'sixty.summeval-op.jsonl');
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

describe('batch mode: an Op-I judge sweep through the Batch API', () => {
  let fake: FakeLlmServer;
  let dataFile: string;
  const dbs: { tdb: ThrowawayDatabase; db: DataSource }[] = [];

  beforeAll(async () => {
    dataFile = sixtyProducts(mkdtempSync(join(tmpdir(), 'precis-batch-')));
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 64,
      batches: { delayMs: 30 },
      rules: [{ match: /<score>/, reply: judgeReply }],
    });
  });

  afterAll(async () => {
    await fake?.close();
    for (const { tdb, db } of dbs) {
      await db.destroy();
      await tdb.drop();
    }
  });

  const registry = () =>
    loadModelRegistry({
      models: {
        judge: {
          baseURL: fake.baseURL,
          model: 'judge',
          maxConcurrency: 64,
          pricePer1MInput: 0.15,
          pricePer1MOutput: 0.6,
          // A batch goes once no call has been parked for 10 ms and no verify task is still on its
          // way: the sweep's 840 calls go as one file however the machine pauses between parks.
          batch: { pollSeconds: 0.1, gatherSeconds: 0.01 },
        },
      },
    });

  const spec = (batch: boolean, products?: number) =>
    validateSpec(builtInFamilies, {
      name: 'opinion-op-i-sweep',
      seed: 7,
      datasets: [
        { name: 'reviews', kind: 'summeval-op', path: dataFile, ...(products ? { limit: products } : {}) },
      ],
      systems: [{ name: 'candidates', source: 'dataset', only: ['gpt-4', 'human-summaries'] }],
      metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' } }],
      ...(batch ? { limits: { batch: ['verify'] } } : {}),
    });

  // Workers and a coordinator in this process, over a database of their own (no cache shared
  // between runs of different tests).
  async function runtime(name: string) {
    const tdb = await createThrowawayDatabase(`runs_batch_mode_${name}`);
    const db = await createDataSource({ url: tdb.url });
    dbs.push({ tdb, db });
    const bus = createInProcessBus();
    const reg = registry();
    const client = new LlmClient({
      registry: reg,
      env: {},
      store: createTypeOrmLlmStore(db),
      parkCall: (call) => parkCall(db, call),
    });
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db,
      bus,
      registry: reg,
      chat: client,
    });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 64 }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 200, undefined, client);
    await coordinator.start();
    return {
      db,
      coordinator,
      start: async (s: ReturnType<typeof spec>) =>
        (await createRun(ctx, { spec: s, file: 'spec.yaml', text: '' }, {})).run.id,
      async stop() {
        await coordinator.stop();
        for (const w of workers) await w.stop();
        await bus.close();
      },
    };
  }

  async function execute(
    batch: boolean,
    products?: number,
  ): Promise<{ db: DataSource; runId: string; progress: RunProgress }> {
    const rt = await runtime(`${batch ? 'batch' : 'online'}_${products ?? 'all'}`);
    try {
      const runId = await rt.start(spec(batch, products));
      return { db: rt.db, runId, progress: await rt.coordinator.watch(runId) };
    } finally {
      await rt.stop();
    }
  }

  async function reportJson(db: DataSource, runId: string): Promise<Record<string, unknown>> {
    const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
    return JSON.parse(renderRunReport(await loadFullRunReport(builtInFamilies, db, run), 'json'));
  }

  it('reports what the online sweep reports, at half the cost', async () => {
    const online = await execute(false);
    const before = fake.stats();
    const batched = await execute(true);
    expect([online.progress.status, batched.progress.status]).toEqual(['completed', 'completed']);
    // The same leaderboards, every cost in them halved: the systems' costs are the batch price.
    const a = await reportJson(online.db, online.runId);
    const b = await reportJson(batched.db, batched.runId);
    const costs = (r: Record<string, unknown>) => JSON.stringify(r).match(/"costUsd":[0-9.e-]+/g) ?? [];
    expect(costs(a).length).toBe(14);
    expect(costs(b).map((c) => Number(c.split(':')[1]))).toEqual(
      costs(a).map((c) => Number(c.split(':')[1]) / 2),
    );
    const same = (r: Record<string, unknown>) =>
      JSON.stringify({ ...r, run: { ...(r.run as object), id: '', createdAt: '', finishedAt: '' } }).replace(
        /"costUsd":[0-9.e-]+/g,
        '"costUsd":0',
      );
    expect(same(b)).toBe(same(a));
    // The same calls: 840 judge calls answered by one batch, none counted as cache hits, at half the spend.
    const usageA = await usageSoFar(online.db, online.runId);
    const usageB = await usageSoFar(batched.db, batched.runId);
    const { costUsd, reservedUsd, batch } = usageB;
    expect({ ...usageB, costUsd: 0, batch: undefined }).toEqual({ ...usageA, costUsd: 0, batch: undefined });
    expect(usageA.calls).toBe(PRODUCTS * 2 * 7);
    expect(costUsd).toBeCloseTo(usageA.costUsd / 2, 9);
    expect(reservedUsd).toBe(0);
    expect(batch).toEqual({
      calls: PRODUCTS * 2 * 7,
      costUsd,
      savedUsd: expect.closeTo(usageA.costUsd / 2, 9),
      resent: 0,
    });
    expect(usageA.batch).toEqual({ calls: 0, costUsd: 0, savedUsd: 0, resent: 0 });
    const after = fake.stats();
    expect(after.batches.filesUploaded - before.batches.filesUploaded).toBe(1);
    // Every judge call answered by the batch, none sent online.
    const sentOnline = (st: typeof after) => st.byPath['/v1/chat/completions'] ?? 0;
    expect(sentOnline(after) - sentOnline(before)).toBe(0);
    expect(after.batches.requestsAnswered).toBe(PRODUCTS * 2 * 7);
  }, 120_000);

  it('sends again the calls of an expired batch, and says so', async () => {
    fake.setBatchOptions({ expireShare: 0.1 });
    const before = fake.stats().batches;
    try {
      const { db, runId, progress } = await execute(true, 10);
      expect(progress.status).toBe('completed');
      const after = fake.stats().batches;
      const expired = after.requestsExpired - before.requestsExpired;
      // Lines 10, 20, ... of each batch expire: 14 of 140, then 1 of those 14 sent again.
      expect(expired).toBe(15);
      expect(after.batchesCreated - before.batchesCreated).toBe(3);
      expect(after.requestsAnswered - before.requestsAnswered).toBe(140);
      const usage = await usageSoFar(db, runId);
      expect(usage.batch).toMatchObject({ calls: 140, resent: 15 });
      expect(describeUsage(usage, false)).toMatch(
        /; 140 through provider batches \(\$[0-9.]+, \$[0-9.]+ less than online; 15 sent again after their batch expired or failed them\)$/,
      );
      const batches = describeRunBatches(await runBatches(db, runId));
      expect(batches[0]).toBe('batches:  0 tasks waiting, 0 calls gathering for the next batch');
      expect(batches.slice(1).map((l) => l.replace(/\s+/g, ' ').replace(/took \d+s$/, 'took'))).toEqual([
        expect.stringMatching(/^ batch_fake\d+ expired 140 requests \(126 answered, 14 failed\), took$/),
        expect.stringMatching(/^ batch_fake\d+ expired 14 requests \(13 answered, 1 failed\), took$/),
        expect.stringMatching(/^ batch_fake\d+ completed 1 requests \(1 answered, 0 failed\), took$/),
      ]);
    } finally {
      fake.setBatchOptions({ expireShare: 0 });
    }
  }, 120_000);

  it('holds a quiet call for the tasks its stage still runs, in the runs this process drives', async () => {
    const { db, runId } = await execute(true, 2);
    const [waiting, queued] = await db.query(
      `SELECT id FROM tasks WHERE run_id = $1 AND stage = 'verify' ORDER BY id LIMIT 2`,
      [runId],
    );
    // A call parked by one verify task while another is queued again (the rest are done).
    await db.query(`UPDATE tasks SET status = 'waiting' WHERE id = $1`, [waiting.id]);
    await db.query(`UPDATE tasks SET status = 'queued' WHERE id = $1`, [queued.id]);
    await db.query(
      `INSERT INTO llm_batch_calls (cache_key, endpoint, model, request) VALUES ('held', 'e-held', 'judge', '{}')`,
    );
    await db.query(`INSERT INTO llm_batch_waiters (cache_key, task_id, run_id) VALUES ('held', $1, $2)`, [
      waiting.id,
      runId,
    ]);
    const other = '00000000-0000-4000-8000-000000000000';
    const held = () => Promise.all([[runId], [], [other]].map((ids) => parkingTasksLeft(db, 'e-held', ids)));
    // Only a driven run's queued task holds the call; an interrupted run's (driven by no one) does not.
    expect(await held()).toEqual([true, false, false]);
    await db.query(`UPDATE tasks SET status = 'running' WHERE id = $1`, [queued.id]);
    expect(await held()).toEqual([true, false, false]);
    await db.query(`UPDATE tasks SET status = 'done' WHERE id = $1`, [queued.id]);
    expect(await held()).toEqual([false, false, false]);
  }, 120_000);

  it('cancels the batch of a cancelled run at the provider', async () => {
    fake.setBatchOptions({ delayMs: 3000 });
    const before = fake.stats().batches;
    const rt = await runtime('cancel');
    try {
      const runId = await rt.start(spec(true, 5));
      const watched = rt.coordinator.watch(runId);
      await waitUntil(
        async () =>
          (await rt.db.query('SELECT 1 FROM llm_batches WHERE provider_batch_id IS NOT NULL')).length > 0,
      );
      await setRunStatus(rt.db, runId, 'cancelled', 'cancelled by the test');
      expect((await watched).status).toBe('cancelled');
      await waitUntil(async () => fake.stats().batches.batchesCancelled > before.batchesCancelled);
      await waitUntil(
        async () =>
          (await rt.db.query(`SELECT 1 FROM llm_batches WHERE status = 'cancelled' AND ended_at IS NOT NULL`))
            .length > 0,
      );
      const ledger = await rt.db.query(
        `SELECT status, count(*)::int AS n, sum(cost_usd)::text AS cost FROM llm_calls WHERE run_id = $1 GROUP BY status`,
        [runId],
      );
      // Every call of the run failed as cancelled, at no cost; no task waits.
      expect(ledger).toEqual([{ status: 'error', n: 70, cost: '0.0000000000' }]);
      expect((await runBatches(rt.db, runId)).waitingTasks).toBe(0);
    } finally {
      await rt.stop();
      fake.setBatchOptions({ delayMs: 30 });
    }
  }, 120_000);
});

async function waitUntil(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in ${ms} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
