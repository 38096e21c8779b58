import { DocumentEntity, type MetricValueEntity } from '@precis/db';
import {
  type BenchmarkSpec,
  isGeneratedSystem,
  metricCovers,
  type RowWork,
  type RunContext,
  type ScoringInput,
  type TaskResultRow,
  taskResultsByKind,
  upsertBoardRows,
  upsertMetricValues,
} from '@precis/engine/family';
import { LEXICAL_VERIFIER } from '@precis/engines';
import { In } from 'typeorm';
import { judgeModel, type KgdsMetricSpec, kgdsMetrics, systemPattern } from '../kgds-spec.js';
import { type KgdsSample, loadKgdsSamples } from '../sample.js';
import { generatedSummaryParts, type KgdsParts, summaryParts } from '../summary/summary-parts.js';
import { type KgdsPart, kgdsTaskId } from '../verify/kgds-metric.js';
import { type KgdsRow, kgdsRow, type ScoredSample } from './kgds-row.js';
import { type SampleVerdicts, scoreSample } from './sample-scores.js';
import { kgdsProducers, kgdsSampleValues } from './sample-values.js';

const judgeLabel = (m: KgdsMetricSpec) =>
  judgeModel(m) !== undefined ? `model:${judgeModel(m)}` : `engine:${LEXICAL_VERIFIER} (heuristic)`;

function summarizerOf(spec: BenchmarkSpec, system: string): string {
  const s = spec.systems.find((x) => x.name === system)!;
  if (!isGeneratedSystem(s)) return 'gold';
  return s.model !== undefined ? `model:${s.model}` : `engine:${s.engine}`;
}

// One system's row (each summary's verdicts, scores and the work that failed) and each scored
// summary's values.
async function systemRow(
  ctx: RunContext,
  input: ScoringInput,
  tasks: Map<string, TaskResultRow>,
  docs: Map<string, string>,
  read: { samples: Map<string, KgdsSample>; parts: Map<string, KgdsParts> },
  m: { index: number; metric: KgdsMetricSpec },
  system: string,
): Promise<{ row: KgdsRow; values: Partial<MetricValueEntity>[] }> {
  const { runId, spec } = input;
  const pattern = systemPattern(spec, system)!;
  const summaries = input.summaries.filter((s) => s.system === system);
  const expected =
    spec.systems.find((s) => s.name === system)?.source === 'gold' ? summaries.length : input.runDocuments;
  const work: RowWork = {
    summaries: { expected, failed: expected - summaries.length },
    judgments: { expected: 0, failed: 0 },
  };
  const scored: ScoredSample[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  const metric = `kgds.${m.index}`;
  const producers = kgdsProducers(spec, judgeLabel(m.metric), judgeModel(m.metric) !== undefined);
  for (const s of summaries) {
    const verdicts: SampleVerdicts = {};
    for (const part of ['facts', 'opinions', 'feedback'] as KgdsPart[]) {
      const t = tasks.get(kgdsTaskId(runId, s, m.index, part));
      if (!t) continue;
      work.judgments.expected++;
      if (t.status !== 'done') {
        work.judgments.failed++;
        continue;
      }
      (verdicts as Record<string, unknown>)[part] = part === 'feedback' ? t.result : t.result?.verdicts;
    }
    const sample = read.samples.get(s.documentId)!;
    const parts = read.parts.get(s.id) ?? (await summaryParts(ctx, runId, spec, s, sample));
    const scores = scoreSample(sample, parts, verdicts);
    if (!scores) continue;
    scored.push({ order: s.order, document: docs.get(s.documentId) ?? s.documentId, scores });
    values.push(...kgdsSampleValues({ runId, system, documentId: s.documentId, metric }, scores, producers));
  }
  const row = kgdsRow(
    {
      system,
      summarizer: summarizerOf(spec, system),
      metric,
      judge: judgeLabel(m.metric),
      pattern,
    },
    scored,
    work,
    { resamples: spec.bootstrap.resamples, seed: spec.seed },
  );
  return { row, values };
}

// The KGDS leaderboards: one row per system each kgds metric judges, stored as metric values
// beside each summary's own values.
export async function scoreKgds(ctx: RunContext, input: ScoringInput): Promise<Record<string, unknown>> {
  const metrics = kgdsMetrics(input.spec);
  if (metrics.length === 0) return {};
  const tasks = await taskResultsByKind(ctx.db, input.runId, [
    'kgds-facts',
    'kgds-opinions',
    'kgds-feedback',
  ]);
  const docIds = [...new Set(input.summaries.map((s) => s.documentId))];
  const docRows = docIds.length
    ? await ctx.db
        .getRepository(DocumentEntity)
        .find({ where: { id: In(docIds) }, select: { id: true, externalId: true } })
    : [];
  const docs = new Map(docRows.map((d) => [d.id, d.externalId]));
  const scored = metrics.map((m) => ({
    m,
    systems: input.spec.systems
      .filter((s) => metricCovers(m.metric, s.name) && systemPattern(input.spec, s.name))
      .map((s) => s.name),
  }));
  // The samples of every summary scored, read together.
  const judged = new Set(scored.flatMap((x) => x.systems));
  const summaries = input.summaries.filter((s) => judged.has(s.system));
  const read = {
    samples: await loadKgdsSamples(
      ctx.db,
      summaries.map((s) => s.documentId),
    ),
    parts: await generatedSummaryParts(ctx, input.runId, input.spec, summaries),
  };
  const board: KgdsRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  for (const { m, systems } of scored) {
    for (const system of systems) {
      const own = await systemRow(ctx, input, tasks, docs, read, m, system);
      board.push(own.row);
      values.push(...own.values);
    }
  }
  await upsertMetricValues(ctx.db, values);
  await upsertBoardRows(ctx.db, input.runId, board, (r) => r.kgds?.opGm ?? null);
  return { kgds: board };
}
