// Batch mode (issue 39) end to end in one process: an Op-I judge sweep over 60 SummEval-OP
// products with limits.batch [verify] parks every judge call, sends them through the fake
// server's Batch API, and reports exactly what the same sweep reports online, at half the cost.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, parkCall } from '@precis/llm';
import { type FakeLlmServer, type FakeReplyContext, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  loadFullRunReport,
  RunCoordinator,
  type RunProgress,
  renderRunReport,
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
          batch: { pollSeconds: 0.1, gatherSeconds: 0.3 },
        },
      },
    });

  const spec = (batch: boolean) =>
    validateSpec(builtInFamilies, {
      name: 'opinion-op-i-sweep',
      seed: 7,
      datasets: [{ name: 'reviews', kind: 'summeval-op', path: dataFile }],
      systems: [{ name: 'candidates', source: 'dataset', only: ['gpt-4', 'human-summaries'] }],
      metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' } }],
      ...(batch ? { limits: { batch: ['verify'] } } : {}),
    });

  // One run in a database of its own (no cache shared between the two modes).
  async function execute(batch: boolean): Promise<{ db: DataSource; runId: string; progress: RunProgress }> {
    const tdb = await createThrowawayDatabase(`runs_batch_mode_${batch ? 'batch' : 'online'}`);
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
    try {
      const { run } = await createRun(ctx, { spec: spec(batch), file: 'spec.yaml', text: '' }, {});
      return { db, runId: run.id, progress: await coordinator.watch(run.id) };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
      await bus.close();
    }
  }

  async function reportJson(db: DataSource, runId: string): Promise<Record<string, unknown>> {
    const run = await db.query('SELECT * FROM runs WHERE id = $1', [runId]);
    const { RunEntity } = await import('@precis/db');
    const entity = await db.getRepository(RunEntity).findOneByOrFail({ id: run[0].id });
    return JSON.parse(renderRunReport(await loadFullRunReport(builtInFamilies, db, entity), 'json'));
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
    });
    expect(usageA.batch).toEqual({ calls: 0, costUsd: 0, savedUsd: 0 });
    const after = fake.stats();
    expect(after.batches.filesUploaded - before.batches.filesUploaded).toBe(1);
    // Every judge call answered by the batch, none sent online.
    const sentOnline = (st: typeof after) => st.byPath['/v1/chat/completions'] ?? 0;
    expect(sentOnline(after) - sentOnline(before)).toBe(0);
    expect(after.batches.requestsAnswered).toBe(PRODUCTS * 2 * 7);
  }, 120_000);
});
