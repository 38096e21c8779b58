import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Bus, createInProcessBus } from '@precis/bus';
import {
  createDataSource,
  createThrowawayDatabase,
  JudgmentEntity,
  SummaryEntity,
  type ThrowawayDatabase,
} from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  type LeaderboardRow,
  RunCoordinator,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const repo = resolve(import.meta.dirname, '../..');
const story = resolve(repo, 'examples/data/the-lighthouse-keeper.md');

describe('a book benchmark run through the planner, the bus and the stage handlers', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmServer;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_embedded');
    db = await createDataSource({ url: tdb.url });
    fake = await startFakeLlmServer({
      latencyMs: 5,
      capacity: 8,
      rules: [
        { model: 'empty-model', reply: '' },
        // A judge that never follows the answer format: prose, truncated JSON, a verdict
        // without types, in turn.
        {
          model: 'bad-judge',
          reply: (ctx) =>
            ['Looks fine to me.', '{"confusing": fal', '{"confusing": true, "questions": ["Why?"]}'][
              ctx.requestIndex % 3
            ]!,
        },
        // The judge: every batch is answered, sentence 2 of each batch is confusing.
        {
          match: /Target sentences/,
          reply: (ctx) => {
            const numbers = [...ctx.lastUser.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
            const answer = Object.fromEntries(
              numbers.map((n, i) => [
                n,
                i === 1
                  ? { confusing: true, questions: ['Who is she?'], types: ['entity omission'] }
                  : { confusing: false },
              ]),
            );
            return JSON.stringify(answer);
          },
        },
        {
          match: /./,
          reply: 'Mara keeps the light. A storm comes. She saves a boat. The Board lets her stay.',
        },
      ],
    });
  });

  afterAll(async () => {
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
  });

  async function execute(spec: ReturnType<typeof validateSpec>, withModel: boolean, concurrency = 4) {
    const bus: Bus = createInProcessBus();
    const registry = loadModelRegistry({
      models: {
        'fake-model': {
          baseURL: fake.baseURL,
          model: 'fake-model',
          contextWindow: 4096,
          maxConcurrency: 16,
          pricePer1MInput: 1,
          pricePer1MOutput: 2,
        },
        'bad-judge': {
          baseURL: fake.baseURL,
          model: 'bad-judge',
          contextWindow: 4096,
          maxConcurrency: 4,
          pricePer1MInput: 1,
          pricePer1MOutput: 2,
        },
        'empty-model': {
          baseURL: fake.baseURL,
          model: 'empty-model',
          contextWindow: 4096,
          maxConcurrency: 4,
          pricePer1MInput: 1,
          pricePer1MOutput: 2,
        },
      },
    });
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db,
      bus,
      registry,
      chat: withModel ? new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db) }) : undefined,
    });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) => startStageWorker(ctx, bus, s, { concurrency })),
    );
    const coordinator = new RunCoordinator(ctx, bus, 200);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
      const progress = await coordinator.watch(run.id);
      return { run, progress };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
      await bus.close();
    }
  }

  it('summarizes with offline engines, annotates with the heuristic judge and scores', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'offline',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier',
          strategy: 'hierarchical',
          engine: 'textrank',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
        {
          name: 'inc',
          strategy: 'incremental',
          engine: 'textrank',
          params: { chunkSize: 200, runningBudget: 100 },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const { run, progress } = await execute(spec, false);
    expect(progress.error).toBeNull();
    expect(progress.status).toBe('completed');
    const summaries = await db.getRepository(SummaryEntity).find({ where: { runId: run.id } });
    expect(summaries.map((s) => s.system).sort()).toEqual(['hier', 'inc']);
    const score = await db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    const rows = score[0].result.leaderboard as LeaderboardRow[];
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.judge).toBe('engine:heuristic-duplication@1 (heuristic)');
      expect(row.score).not.toBeNull();
      expect(row.summaries).toBe(1);
      expect(row.summarizer).toBe(`engine:textrank`);
      expect(row.lengthTokens).toBeGreaterThan(0);
    }
  });

  it('runs a model summarizer and a batched model judge through the fake server', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'with-model',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier-fake',
          strategy: 'hierarchical',
          model: 'fake-model',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { model: 'fake-model' }, mode: 'batched', batchSize: 3 }],
    });
    const before = fake.stats().completedChats;
    const { run, progress } = await execute(spec, true);
    expect(progress.status).toBe('completed');
    const judgments = await db
      .getRepository(JudgmentEntity)
      .find({ where: { runId: run.id }, order: { unit: 'ASC' } });
    // The fixed summary has 4 sentences: batches [1,2,3] and [4]; sentence 2 is confusing.
    expect(judgments.map((j) => [j.unit, (j.verdict as { confusing: boolean }).confusing])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [4, false],
    ]);
    const score = await db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    const row = (score[0].result.leaderboard as LeaderboardRow[])[0]!;
    expect(row.score).toBeCloseTo(0.75, 10);
    expect(row.judge).toBe('model:fake-model');
    expect(row.errorTypes['entity omission']).toBeCloseTo(0.25, 10);
    expect(row.summarizerUsage.calls).toBeGreaterThan(0);
    expect(row.judgeUsage.calls).toBe(2);
    expect(fake.stats().completedChats - before).toBe(row.summarizerUsage.calls + row.judgeUsage.calls);
  });

  it('records unparseable judge replies as explicit failures, never as "no confusion"', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'malformed-judge',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier',
          strategy: 'hierarchical',
          engine: 'textrank',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { model: 'bad-judge' }, mode: 'sentence', maxAttempts: 3 }],
    });
    const before = fake.stats().byModel['bad-judge'] ?? 0;
    const { run, progress } = await execute(spec, true);
    expect(progress.status).toBe('completed-with-failures');
    expect(progress.error).toMatch(
      /^5 of 5 verify tasks failed; first failure: verify:hier:the-lighthouse-keeper\.md:booookscore\.0:\d: judge bad-judge gave no parseable answer in 3 attempt\(s\)$/,
    );
    const judgments = await db.getRepository(JudgmentEntity).find({ where: { runId: run.id } });
    expect(judgments.length).toBeGreaterThan(0);
    expect(judgments.every((j) => j.status === 'failed')).toBe(true);
    const tasks: { status: string; n: string }[] = await db.query(
      `SELECT status, COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'verify' GROUP BY status`,
      [run.id],
    );
    expect(tasks.map((t) => t.status)).toEqual(['failed']);
    // Every sentence was asked maxAttempts times (re-asks are distinct calls, not cache hits).
    expect((fake.stats().byModel['bad-judge'] ?? 0) - before).toBe(3 * judgments.length);
    // And the ledger has each of those calls once: the re-asked ones written before their re-ask,
    // the last one with the task's failure.
    const [ledger] = await db.query(
      `SELECT COUNT(*)::int AS n, COUNT(DISTINCT cache_key)::int AS keys FROM llm_calls
        WHERE run_id = $1 AND model = 'bad-judge'`,
      [run.id],
    );
    expect(ledger).toEqual({ n: 3 * judgments.length, keys: 3 * judgments.length });
    const score = await db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    const row = (score[0].result.leaderboard as LeaderboardRow[])[0]!;
    expect(row.score).toBeNull();
    expect(row.summaries).toBe(0);
    const n = judgments.length;
    expect(row.work).toEqual({
      summaries: { expected: 1, failed: 0 },
      judgments: { expected: n, failed: n },
    });
    expect(row.status).toBe(`failed: ${n} of ${n} judgments failed`);
  });

  it('uses prompt overrides from the spec, with versions derived from their text', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'overridden-prompts',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier-custom',
          strategy: 'hierarchical',
          model: 'fake-model',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { model: 'fake-model' }, mode: 'batched', batchSize: 3 }],
      templateOverrides: {
        'book.chunk-summary': { user: 'CUSTOM CHUNK PROMPT ({{budget}} words max):\n{{text}}' },
        'booookscore.annotate-batch': {
          user: 'CUSTOM JUDGE PROMPT. Summary:\n{{summary}}\nTarget sentences:\n{{numberedSentences}}\nAnswer JSON keyed by number, e.g. {"{{firstNumber}}": {"confusing": false}}',
        },
      },
    });
    fake.resetStats();
    const { run, progress } = await execute(spec, true);
    expect(progress.status).toBe('completed');
    const prompts = fake.requests().map((r) => JSON.stringify(r.body));
    expect(prompts.some((p) => p.includes('CUSTOM CHUNK PROMPT'))).toBe(true);
    expect(prompts.some((p) => p.includes('CUSTOM JUDGE PROMPT'))).toBe(true);
    const steps: { v: string }[] = await db.query(
      `SELECT DISTINCT payload->'step'->>'templateVersion' AS v FROM tasks WHERE run_id = $1 AND payload->'step'->>'templateId' = 'book.chunk-summary'`,
      [run.id],
    );
    expect(steps.map((x) => x.v)).toEqual([expect.stringMatching(/^1\+override\.[0-9a-f]{10}$/)]);
    const judgments = await db.getRepository(JudgmentEntity).find({ where: { runId: run.id } });
    expect(new Set(judgments.map((j) => j.templateVersion))).toEqual(
      new Set([expect.stringMatching(/^booookscore\.annotate-batch@1\+override\./)]),
    );
  });

  it('treats an empty summarizer reply as a failed step, never as a summary', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'empty-replies',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'silent',
          strategy: 'incremental',
          model: 'empty-model',
          params: { chunkSize: 200, maxRegenerations: 1 },
        },
        { name: 'tr', strategy: 'incremental', engine: 'textrank', params: { chunkSize: 200 } },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const { run, progress } = await execute(spec, true);
    expect(progress.status).toBe('completed-with-failures');
    expect(progress.summaries).toEqual({ expected: 2, done: 1, failed: 1 });
    expect(progress.error).toBe(
      '1 of 2 summaries failed; 1 of 5 summarize tasks failed; first failure: summarize:silent:the-lighthouse-keeper.md:i/0: step i/0 (initial): the summarizer returned empty text in 2 generation(s)',
    );
    const failed: { error: string }[] = await db.query(
      `SELECT error FROM tasks WHERE run_id = $1 AND status = 'failed'`,
      [run.id],
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toContain('empty text in 2 generation(s)');
    const summaries = await db.getRepository(SummaryEntity).find({ where: { runId: run.id } });
    expect(summaries.map((s) => s.system)).toEqual(['tr']);
    const score = await db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    const silent = (score[0].result.leaderboard as LeaderboardRow[]).find((r) => r.system === 'silent')!;
    expect([silent.score, silent.summaries, silent.status]).toEqual([
      null,
      0,
      'failed: 1 of 1 summary failed',
    ]);
  });

  it('stops a run at its cost limit before spending past it, with 16 tasks at once', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'cost-limited',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      // Hierarchical: every chunk summary is ready at once, so 16 tasks call the model together.
      systems: [
        {
          name: 'hier-fake',
          strategy: 'hierarchical',
          model: 'fake-model',
          params: { chunkSize: 60, levelBudgets: [40, 80], maxTokens: 64 },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
      // fake-model costs $1 / $2 per 1M tokens; each call reserves its prompt and 64 output tokens.
      limits: { costUsd: 0.0006, concurrency: 16 },
      cache: false,
    });
    const { run, progress } = await execute(spec, true, 16);
    expect(progress.status).toBe('stopped');
    expect(progress.error).toMatch(
      /^cost limit reached: a call to model "fake-model" needs \$0\.\d+ reserved, but \$0\.\d+ of the run's \$0\.0006 cost limit is already committed; nothing was sent \(raise limits\.costUsd to go on\)$/,
    );
    const [spent] = await db.query(
      `SELECT COALESCE(SUM(cost_usd), 0) AS usd, COUNT(*)::int AS calls FROM llm_calls WHERE run_id = $1`,
      [run.id],
    );
    expect(Number(spent.usd)).toBeLessThanOrEqual(0.0006);
    expect(spent.calls).toBeGreaterThan(0);
    const [steps] = await db.query(
      `SELECT COUNT(*)::int AS n, COUNT(*) FILTER (WHERE status = 'done')::int AS done
         FROM tasks WHERE run_id = $1 AND stage = 'summarize'`,
      [run.id],
    );
    // Stopped part-way: some chunk summaries were never made, and none is left open.
    expect(steps.done).toBeLessThan(steps.n);
    const open = await db.query(
      `SELECT COUNT(*)::int AS n FROM tasks WHERE run_id = $1 AND status NOT IN ('done', 'failed', 'dead', 'cancelled')`,
      [run.id],
    );
    expect(open[0].n).toBe(0);
    const [ended] = await db.query(
      `SELECT COUNT(*)::int AS n, MIN(error) AS error FROM tasks WHERE run_id = $1 AND status = 'cancelled'`,
      [run.id],
    );
    expect(ended).toEqual({
      n: steps.n - steps.done,
      error: 'the run ended (stopped) before this task finished',
    });
    expect(progress.tasks.summarize).toEqual({
      total: steps.n,
      done: steps.done,
      failed: 0,
      cancelled: steps.n - steps.done,
    });
  });
});
