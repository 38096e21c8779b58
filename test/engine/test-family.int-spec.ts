// A benchmark family defined here, in the test, runs end to end through the engine without any
// change to engine code: embedded (in-process bus) and as the cluster runs it (NATS JetStream,
// PostgreSQL, the service kit's stage consumers and a coordinator like the gateway's).

import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Bus, createInProcessBus, createNatsBus } from '@precis/bus';
import {
  createDataSource,
  createThrowawayDatabase,
  MetricValueEntity,
  RunEntity,
  type ThrowawayDatabase,
} from '@precis/db';
import {
  type BenchmarkFamily,
  type Board,
  ConfigurationError,
  createRun,
  createRunContext,
  executeRun,
  FamilyRegistry,
  findRun,
  loadFullRunReport,
  metricValueId,
  type RunContext,
  RunCoordinator,
  type RunProgress,
  renderRunReport,
  SpecError,
  summarizeTaskId,
  summaryText,
  upsertMetricValues,
  validateSpec,
  verifyTaskId,
} from '@precis/engine';
import { GENERIC_DATASET_KINDS } from '@precis/families';
import { prepareImport } from '@precis/ingest';
import { createServiceLogger, MetricsRegistry, startStageConsumers } from '@precis/service';
import { startThrowawayNats, type ThrowawayNats } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { z } from 'zod';

const story = resolve(import.meta.dirname, '../../examples/data/the-lighthouse-keeper.md');
const words = (text: string) => text.split(/\s+/).filter(Boolean);

// Strategy "first-words": one summarize task per document, its first `budgetWords` words.
// Metric "word-count": one verify task per summary counts its words; the score is the mean
// absolute distance to the metric's target, per system.
const complete = { summaries: { expected: 1, failed: 0 }, judgments: { expected: 1, failed: 0 } };
type WordRow = { system: string; value: number | null; work: typeof complete };

// One leaderboard, lower distance first. The family stores no per-document values, so no test can
// separate two systems: they share rank 1.
const wordsBoard = (rows: readonly MetricValueEntity[]): Board<WordRow> => ({
  key: 'word-count',
  family: 'words',
  metric: 'word-count',
  label: 'word-count',
  title: 'Words off target',
  ranking: { metric: 'word-count', column: 'words off', higherIsBetter: false },
  rows: rows.map((r) => ({ system: r.system, value: r.value, work: complete })),
  score: (r) => r.value,
  fields: () => ({}),
  columns: [{ header: 'words off', show: (r) => String(r.value) }],
  notes: [],
});

const wordsFamily: BenchmarkFamily = {
  name: 'words',
  strategies: [
    {
      name: 'first-words',
      // The words it keeps: a field it adds to systems[].params.
      params: { budgetWords: z.int().positive().optional() },
      async plan(u) {
        const text = u.results.get('first');
        if (text !== undefined) return { kind: 'summary', text, finalStep: 'first' };
        const payload = { type: 'first-words', system: u.system.name, documentId: u.documentId };
        const id = summarizeTaskId(u.runId, u.system.name, u.documentId, 'first');
        return {
          kind: 'steps',
          tasks: [{ id, runId: u.runId, stage: 'summarize', kind: 'first-words', payload }],
        };
      },
    },
  ],
  metrics: [
    {
      name: 'word-count',
      schema: z.object({ name: z.literal('word-count'), target: z.int().positive() }).strict(),
      async open(_ctx, runId) {
        return {
          tasksFor: (summaries) =>
            summaries.map((s) => ({
              id: verifyTaskId(runId, s.system, s.documentId, 'word-count', 0),
              runId,
              stage: 'verify' as const,
              kind: 'count-words',
              payload: { type: 'count-words', summaryId: s.id },
            })),
        };
      },
    },
  ],
  taskKinds: [
    {
      kind: 'first-words',
      stage: 'summarize',
      async handle(ctx, _ref, payload, spec) {
        const system = spec.systems.find((s) => s.name === payload.system);
        const rows: { text: string }[] = await ctx.db.query('SELECT text FROM documents WHERE id = $1', [
          payload.documentId,
        ]);
        const budget = (system as { params: { budgetWords?: number } }).params.budgetWords ?? 20;
        const text = words(rows[0]!.text).slice(0, budget).join(' ');
        return { result: { text, generations: 1, cut: false, producer: 'engine:first-words' } };
      },
    },
    {
      kind: 'count-words',
      stage: 'verify',
      async handle(ctx, ref, payload) {
        const text = await summaryText(ctx.db, payload.summaryId as string);
        if (text === null) throw new ConfigurationError(`task ${ref.id}: no summary ${payload.summaryId}`);
        return { result: { words: words(text).length } };
      },
    },
  ],
  async score(ctx, input) {
    const target = Number(input.spec.metrics[0]!.target);
    const rows: { system: string; words: number }[] = await ctx.db.query(
      `SELECT split_part(id, ':', 3) AS system, (result->>'words')::int AS words FROM tasks
       WHERE run_id = $1 AND kind = 'count-words' AND status = 'done' ORDER BY id`,
      [input.runId],
    );
    const systems = [...new Set(rows.map((r) => r.system))];
    const board = systems.map((system) => {
      const own = rows.filter((r) => r.system === system);
      const distance = own.reduce((a, r) => a + Math.abs(r.words - target), 0) / own.length;
      return { system, summaries: own.length, distance };
    });
    await upsertMetricValues(
      ctx.db,
      board.map((b) => ({
        id: metricValueId(input.runId, b.system, null, 'word-count'),
        runId: input.runId,
        system: b.system,
        documentId: null,
        metric: 'word-count',
        value: b.distance,
        details: { ...b },
        producedBy: 'engine:word-count',
      })),
    );
    return { wordCounts: board };
  },
  report: {
    async load(db, run) {
      return db.getRepository(MetricValueEntity).find({ where: { runId: run.id }, order: { id: 'ASC' } });
    },
    hasResults: (rows) => (rows as MetricValueEntity[]).length > 0,
    // One leaderboard, lower distance first; it stores no per-document values, so no test can
    // separate two systems.
    boards: (rows) => [wordsBoard(rows as MetricValueEntity[])],
    blocks: (rows) => [
      {
        key: 'word-counts',
        heading: 'Word counts',
        list: (rows as MetricValueEntity[]).map(
          (r) => `${r.system}: ${r.value} words off target (${r.producedBy})`,
        ),
      },
    ],
  },
};

// The dataset is a generic kind (text), given beside the family as the shipped registry does.
const families = new FamilyRegistry([wordsFamily], { datasetKinds: GENERIC_DATASET_KINDS });
const raw = {
  name: 'words',
  datasets: [{ name: 'story', kind: 'text', path: story }],
  systems: [
    { name: 'short', strategy: 'first-words', engine: 'lead', params: { budgetWords: 10 } },
    { name: 'long', strategy: 'first-words', engine: 'lead', params: { budgetWords: 30 } },
  ],
  metrics: [{ name: 'word-count', target: 25 }],
};

async function expectReport(ctx: RunContext, runId: string, progress: RunProgress): Promise<void> {
  expect(progress.status).toBe('completed');
  expect(progress.summaries).toMatchObject({ expected: 2, done: 2, failed: 0 });
  expect(progress.tasks).toMatchObject({
    summarize: { total: 2, done: 2, failed: 0 },
    verify: { total: 2, done: 2, failed: 0 },
    score: { total: 1, done: 1, failed: 0 },
  });
  const report = await loadFullRunReport(families, ctx.db, await findRun(ctx.db, runId));
  expect(renderRunReport(report, 'md')).toBe(
    `# Run ${report.run.name} (${runId}) — completed\n\n## Word counts\n\n- long: 5 words off target (engine:word-count)\n- short: 15 words off target (engine:word-count)\n`,
  );
  const [section] = JSON.parse(renderRunReport(report, 'json')).sections;
  expect([section.title, section.rankingMetric, section.notes.at(-1)]).toEqual([
    'Words off target',
    'word-count',
    'No documents to compare (no per-document values of the ranking metric): all share rank 1.',
  ]);
  expect(
    section.rows.map((r: { system: string; rankLabel: string; score: number }) => [
      r.system,
      r.rankLabel,
      r.score,
    ]),
  ).toEqual([
    ['long', '=1', 5],
    ['short', '=1', 15],
  ]);
}

describe('a benchmark family defined in a test', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('engine_test_family');
    db = await createDataSource({ url: tdb.url });
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  it('validates specs against its own parts only', () => {
    const books = { ...raw, systems: [{ name: 'h', strategy: 'hierarchical', engine: 'lead' }] };
    expect(() => validateSpec(families, books, 'words.yaml')).toThrow(SpecError);
    expect(() => validateSpec(families, books, 'words.yaml')).toThrow(
      /systems\[0\]\.strategy: .*"first-words"/,
    );
    const noTarget = { ...raw, metrics: [{ name: 'word-count' }] };
    expect(() => validateSpec(families, noTarget, 'words.yaml')).toThrow(/metrics\[0\]\.target: required/);
  });

  it('refuses dataset files where its host gives no importer, writing nothing', async () => {
    const bus = createInProcessBus();
    const ctx = createRunContext({ families, db, bus });
    await expect(
      createRun(ctx, { spec: validateSpec(families, raw), file: 'words.yaml', text: '' }),
    ).rejects.toThrow(
      'datasets[0].path: this host imports no dataset files; import "story" with `precis ingest` and name it without a path',
    );
    expect(await db.getRepository(RunEntity).count()).toBe(0);
    await bus.close();
  });

  it('runs embedded, on the in-process bus', async () => {
    const bus = createInProcessBus();
    const ctx = createRunContext({ prepareImport, families, db, bus });
    const { run } = await createRun(ctx, { spec: validateSpec(families, raw), file: 'words.yaml', text: '' });
    const outcome = await executeRun(ctx, bus, run.id, { concurrency: 2 });
    if (outcome.interrupted) throw new Error('interrupted');
    await expectReport(ctx, run.id, outcome.progress);
    await bus.close();
  });

  describe('as the cluster runs it', () => {
    let nats: ThrowawayNats;
    let bus: Bus;

    beforeAll(async () => {
      nats = await startThrowawayNats();
      bus = await createNatsBus({ servers: nats.url, onError: () => {} });
    });

    afterAll(async () => {
      await bus?.close();
      await nats?.dispose();
    });

    it('runs over NATS JetStream with the services’ stage consumers', async () => {
      const logger = createServiceLogger({
        service: 'test',
        version: '0',
        level: 'warn',
        destination: new Writable({ write: (_c, _e, cb) => cb() }),
      });
      const metrics = new MetricsRegistry();
      const config = {
        WORKER_CONCURRENCY: 4,
        TASK_ACK_WAIT_MS: 30_000,
        TASK_MAX_DELIVER: 3,
        TASK_RETRY_DELAYS_MS: [50],
      };
      // What the summarization, verifier and scoring services each start.
      const consumers = await Promise.all(
        (['summarize', 'verify', 'score'] as const).map((stage) =>
          startStageConsumers({
            stages: [stage],
            bus,
            dataSource: db,
            config,
            logger,
            metrics,
            families,
          }),
        ),
      );
      // What the gateway's run driver does.
      const ctx = createRunContext({ prepareImport, families, db, bus });
      const coordinator = new RunCoordinator(ctx, bus, 200, 1000);
      await coordinator.start();
      try {
        const spec = validateSpec(families, { ...raw, name: 'words-cluster' });
        const { run } = await createRun(ctx, { spec, file: 'words.yaml', text: '' });
        await expectReport(ctx, run.id, await coordinator.watch(run.id));
      } finally {
        await coordinator.stop();
        await Promise.all(consumers.flat().map((c) => c.stop()));
      }
    });
  });
});
