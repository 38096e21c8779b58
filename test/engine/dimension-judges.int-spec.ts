import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { renderRunReportAs } from '@precis/api/report-html';
import { createInProcessBus } from '@precis/bus';
import {
  createDataSource,
  createThrowawayDatabase,
  MetricValueEntity,
  SummaryEntity,
  type ThrowawayDatabase,
} from '@precis/db';
import { importDataset, prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import { correlateWithHumans } from '@precis/meta';
import { type FakeLlmServer, type FakeReplyContext, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { IsNull, Not } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  type DimensionLeaderboard,
  loadFullRunReport,
  loadTraceBlocks,
  RunCoordinator,
  renderRunReport,
  startStageWorker,
  usageSoFar,
  validateSpec,
} from '../support/precis.js';

const repo = resolve(import.meta.dirname, '../..');
const SUMMEVAL_OP = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');
const N = 20;
const STEPS_REPLY = '1. Read the reviews.\n2. Read the summary.\n3. Rate it on the criterion.';

// The judged summary, as the judge prompts lay it out.
const summaryIn = (prompt: string) =>
  /\nSummary\n([\s\S]*?)\n\n(?:How to evaluate|Follow the evaluation steps)/.exec(prompt)?.[1] ?? '';

// Scripted replies of one (summary, dimension) prompt, sample k of N: base = 1 + len % 3 gives
// 5 x base, 10 x base+1, 3 x base+2, one reply without a tag, one off the scale.
function scripted(base: number, k: number): string {
  if (k < 5) return `The summary is weak here. <score>${base}</score>`;
  if (k < 15) return `Mostly fine.\n<score>${base + 1}</score>`;
  if (k < 18) return `<score>${base + 2}</score>`;
  if (k === 18) return 'I would rate it four out of five.';
  return '<score>9</score>';
}
const baseOf = (summary: string) => 1 + (summary.length % 3);

describe('dimension judges (Op-I, G-Eval, logprobs) over SummEval-OP candidates', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmServer;
  const seen = new Map<string, number>();
  let stepsRequests = 0;
  let scoringWithSteps = 0;
  // The first product's gpt-4 summary gets only malformed fluency replies.
  let poisoned = '';

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_dimension_judges');
    db = await createDataSource({ url: tdb.url });
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 64,
      rules: [
        {
          match: /write the evaluation steps an annotator/,
          reply: () => {
            stepsRequests++;
            return STEPS_REPLY;
          },
        },
        {
          model: 'lp-judge',
          reply: () => ({
            content: '<score>4</score>',
            logprobs: [
              { token: '<score>', logprob: -0.01 },
              {
                token: '4',
                logprob: Math.log(0.6),
                top: [
                  { token: '4', logprob: Math.log(0.6) },
                  { token: '5', logprob: Math.log(0.3) },
                  { token: ' 3', logprob: Math.log(0.1) },
                  { token: 'x', logprob: Math.log(0.5) },
                ],
              },
              { token: '</score>', logprob: -0.01 },
              ...Array.from({ length: 12 }, () => ({ token: '', logprob: 0 })),
            ],
          }),
        },
        {
          match: /<score>/,
          reply: (ctx: FakeReplyContext) => {
            const prompt = ctx.lastUser;
            if (prompt.includes(STEPS_REPLY.split('\n')[0]!)) scoringWithSteps++;
            const k = seen.get(prompt) ?? 0;
            seen.set(prompt, k + 1);
            const summary = summaryIn(prompt);
            if (summary === poisoned && /Name: Fluency/.test(prompt)) return `no score, sample ${k}`;
            return scripted(baseOf(summary), k % N);
          },
        },
      ],
    });
  });

  afterAll(async () => {
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
  });

  async function execute(raw: Record<string, unknown>, fresh = false) {
    const spec = validateSpec(builtInFamilies, raw);
    const bus = createInProcessBus();
    const model = (name: string) => ({
      baseURL: fake.baseURL,
      model: name,
      contextWindow: 8192,
      maxConcurrency: 64,
    });
    const registry = loadModelRegistry({ models: { judge: model('judge'), 'lp-judge': model('lp-judge') } });
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db,
      bus,
      registry,
      chat: new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db) }),
    });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 8 }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 200);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' }, { fresh });
      const progress = await coordinator.watch(run.id);
      return { run, progress };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
      await bus.close();
    }
  }

  const opI = {
    name: 'op-i-n20',
    datasets: [{ name: 'sop', kind: 'summeval-op', path: SUMMEVAL_OP, limit: 2 }],
    systems: [
      { name: 'candidates', source: 'dataset', only: ['gpt-4', 'human-summaries', 'plansum'] },
      { name: 'tr', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 40 } },
    ],
    metrics: [
      {
        name: 'dimensions',
        family: 'op-i',
        dimensions: ['fluency', 'coherence'],
        judge: { model: 'judge' },
        samples: N,
      },
    ],
  };

  let opIRun = '';

  it('scores n = 20 samples per (summary, dimension): distribution, unparsed count and mean', async () => {
    // Learn the poisoned summary before the run: product-01's gpt-4 candidate.
    await importDataset(db, {
      kind: 'summeval-op',
      kinds: builtInFamilies.datasetKinds,
      path: SUMMEVAL_OP,
      name: 'sop',
    });
    const [first] = (await db.query(
      `SELECT d.data FROM documents d JOIN datasets s ON s.id = d.dataset_id WHERE s.name = 'sop' ORDER BY d.ordinal LIMIT 1`,
    )) as { data: { summaries: { system: string; summary: string }[] } }[];
    poisoned = first!.data.summaries.find((s) => s.system === 'gpt-4')!.summary.trim();

    const { run, progress } = await execute(opI);
    opIRun = run.id;
    // The poisoned summary's fluency task gets no parseable sample: honest, not 'completed'.
    expect(progress.error).toBe(
      '1 of 16 verify tasks failed; first failure: verify:gpt-4:product-01:dimensions.0:fluency: none of the 20 samples had a parseable <score>',
    );
    expect(progress.status).toBe('completed-with-failures');
    const summaries = await db.getRepository(SummaryEntity).find({ where: { runId: run.id } });
    expect(summaries.map((s) => s.system).sort()).toEqual(
      ['gpt-4', 'gpt-4', 'human-summaries', 'human-summaries', 'plansum', 'plansum', 'tr', 'tr'].sort(),
    );
    expect(summaries.find((s) => s.system === 'tr')!.producer).toBe('engine:textrank');
    const rows = await db
      .getRepository(MetricValueEntity)
      .find({ where: { runId: run.id, documentId: Not(IsNull()) } });
    expect(rows).toHaveLength(8 * 2);
    for (const row of rows) {
      const summary = summaries.find((s) => s.system === row.system && s.documentId === row.documentId)!;
      expect(row.producedBy).toBe('model:judge opinion.judge.op-i@1');
      const d = row.details as Record<string, unknown>;
      expect(d.n).toBe(N);
      expect(d.family).toBe('op-i');
      if (summary.text.trim() === poisoned && row.metric === 'dimension:fluency') {
        expect(row.value).toBeNull();
        expect(d).toMatchObject({ parsed: 0, unparsed: N, distribution: {} });
        expect(String(d.failure)).toContain('none of the 20 samples');
        continue;
      }
      const b = baseOf(summary.text.trim());
      expect(d).toMatchObject({
        parsed: 18,
        unparsed: 2,
        distribution: { [b]: 5, [b + 1]: 10, [b + 2]: 3 },
      });
      expect(row.value).toBeCloseTo((5 * b + 10 * (b + 1) + 3 * (b + 2)) / 18, 10);
    }
    const failed = await db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE run_id = $1 AND status = 'failed'`,
      [run.id],
    );
    expect(failed[0].n).toBe(1);
    const judgments = await db.query(
      `SELECT status, judge, template_version, count(*)::int AS n FROM judgments WHERE run_id = $1 GROUP BY 1, 2, 3 ORDER BY 1`,
      [run.id],
    );
    expect(judgments).toEqual([
      { status: 'failed', judge: 'model:judge', template_version: 'opinion.judge.op-i@1', n: 1 },
      { status: 'ok', judge: 'model:judge', template_version: 'opinion.judge.op-i@1', n: 15 },
    ]);

    const score = await db.query(`SELECT result FROM tasks WHERE id = $1`, [`${run.id}:score`]);
    const [board] = score[0].result.dimensions as DimensionLeaderboard[];
    expect(board!.judge).toBe('model:judge');
    expect(board!.templates).toEqual({ fluency: 'opinion.judge.op-i@1', coherence: 'opinion.judge.op-i@1' });
    const gpt4 = board!.rows.find((r) => r.system === 'gpt-4')!;
    expect(gpt4.dimensions.fluency).toMatchObject({ summaries: 1, failed: 1 });
    expect(gpt4.dimensions.coherence!.summaries).toBe(2);
    expect(gpt4.dimensions.coherence!.human).not.toBeNull();
    expect(board!.rows.find((r) => r.system === 'tr')!.dimensions.coherence!.human).toBeNull();
    expect(board!.humanCorrelation?.coherence?.summaries).toBe(6);
    const systemRows = await db
      .getRepository(MetricValueEntity)
      .find({ where: { runId: run.id, documentId: IsNull() } });
    expect(systemRows.length).toBeGreaterThan(0);
    for (const r of systemRows) expect(r.producedBy).toBe('model:judge opinion.judge.op-i@1');

    const report = await loadFullRunReport(builtInFamilies, db, run);
    const md = renderRunReport(report, 'md');
    expect(md).toContain(
      'Judge model:judge (op-i, template opinion.judge.op-i@1); 20 sample(s) at temperature 0.7',
    );
    expect(md).toContain('| gpt-4 | dataset:gpt-4 |');
    expect(md).toContain(
      '## Opinion dimensions: correlation with human ratings (summary level) [dimensions.0]\n\n| dimension | Spearman | Kendall | products |',
    );
    const csv = renderRunReport(report, 'csv');
    expect(csv).toContain(
      '\n\ntable,dimension,Spearman,Kendall,products\ndimensions.0.human-correlation,fluency,',
    );
    for (const format of ['csv', 'json', 'html', 'text'] as const)
      expect(renderRunReportAs(report, format)).toContain('plansum');

    // The drill-down: the judge samples behind each score of one summary, the failure named.
    const doc = summaries.find((s) => s.system === 'gpt-4' && s.text.trim() === poisoned)!;
    const trace = await loadTraceBlocks(builtInFamilies, db, run, doc.documentId);
    const gpt4Trace = trace.find((t) => t.key === 'trace.gpt-4.dimensions')!;
    const b = baseOf(poisoned);
    expect(gpt4Trace.heading).toBe('gpt-4: judge samples (dataset:gpt-4)');
    expect(gpt4Trace.table!.rows.map((r) => r.slice(0, 5))).toEqual([
      ['coherence', expect.any(String), `${b}×5, ${b + 1}×10, ${b + 2}×3`, '18', '2'],
      ['fluency', 'failed', '', '0', '20'],
    ]);
  });

  it('feeds `meta correlate judge:<run>` from the run rows', async () => {
    const report = await correlateWithHumans(db, { dataset: 'sop', metric: { judgeRun: opIRun } });
    expect(report.producedBy).toContain('model:judge opinion.judge.op-i@1');
    expect(report.dimensions.coherence.summaries).toBe(6);
    expect(report.dimensions.fluency.summaries).toBe(5);
    expect(report.dimensions.specificity.summaries).toBe(0);
  });

  it('re-runs the same spec from the cache without a model call', async () => {
    const before = fake.stats().completedChats;
    const { run, progress } = await execute(opI, true);
    expect(progress.status).toBe('completed-with-failures');
    expect(run.id).not.toBe(opIRun);
    expect(fake.stats().completedChats).toBe(before);
    // The ledger still counts every call: each judge task's N samples are one cache-hit row
    // standing for N calls.
    const [{ tasks }] = await db.query(
      `SELECT COUNT(*)::int AS tasks FROM tasks WHERE run_id = $1 AND kind = 'judge-dimension'`,
      [run.id],
    );
    expect(await usageSoFar(db, run.id)).toMatchObject({
      calls: tasks * N,
      cacheHits: tasks * N,
      costUsd: 0,
    });
    const [ledger] = await db.query(
      `SELECT COUNT(*)::int AS rows, SUM(calls)::int AS calls, MIN(calls)::int AS least FROM llm_calls WHERE run_id = $1`,
      [run.id],
    );
    expect(ledger).toEqual({ rows: tasks, calls: tasks * N, least: N });
    const values = (id: string) =>
      db.query(
        `SELECT system, document_id, metric, value FROM metric_values WHERE run_id = $1 AND document_id IS NOT NULL ORDER BY 1, 2, 3`,
        [id],
      );
    expect(await values(run.id)).toEqual(await values(opIRun));
  });

  it('G-Eval writes the evaluation steps once per dimension and reuses them for every summary', async () => {
    const { run, progress } = await execute({
      ...opI,
      name: 'g-eval',
      systems: [{ name: 'candidates', source: 'dataset', only: ['gpt-4', 'plansum'] }],
      metrics: [
        {
          name: 'dimensions',
          family: 'g-eval',
          dimensions: ['relevance', 'specificity'],
          judge: { model: 'judge' },
          samples: 3,
        },
      ],
    });
    expect(progress.status).toBe('completed');
    expect(stepsRequests).toBe(2);
    // 2 products x 2 systems x 2 dimensions x 3 samples, each prompt embedding the steps.
    expect(scoringWithSteps).toBe(24);
    const steps = await db.query(`SELECT result FROM tasks WHERE run_id = $1 AND kind = 'geval-steps'`, [
      run.id,
    ]);
    expect(steps.map((s: { result: { steps: string[] } }) => s.result.steps)).toEqual([
      ['Read the reviews.', 'Read the summary.', 'Rate it on the criterion.'],
      ['Read the reviews.', 'Read the summary.', 'Rate it on the criterion.'],
    ]);
    const producers = await db.query(
      `SELECT DISTINCT produced_by FROM metric_values WHERE run_id = $1 AND document_id IS NOT NULL ORDER BY 1`,
      [run.id],
    );
    expect(producers.map((p: { produced_by: string }) => p.produced_by)).toEqual([
      'model:judge opinion.geval.score.relevance@1',
      'model:judge opinion.geval.score.specificity@1',
    ]);
  });

  it('uses the logprob-weighted score when asked and the endpoint returns logprobs', async () => {
    const { run, progress } = await execute({
      ...opI,
      name: 'logprobs',
      systems: [{ name: 'candidates', source: 'dataset', only: ['gpt-4'] }],
      metrics: [
        {
          name: 'dimensions',
          family: 'op',
          dimensions: ['faithfulness'],
          judge: { model: 'lp-judge' },
          samples: 2,
          logprobs: true,
        },
      ],
    });
    expect(progress.status).toBe('completed');
    const rows = await db
      .getRepository(MetricValueEntity)
      .find({ where: { runId: run.id, documentId: Not(IsNull()) } });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      // 0.6 x 4 + 0.3 x 5 + 0.1 x 3 over the score tokens; the plain mean of the samples is 4.
      expect(r.value).toBeCloseTo(4.2, 10);
      expect(r.producedBy).toBe('model:lp-judge opinion.judge.op.faithfulness@1');
      expect(r.details).toMatchObject({ method: 'logprob-weighted', sampleMean: 4, parsed: 2, unparsed: 0 });
    }
  });
});
