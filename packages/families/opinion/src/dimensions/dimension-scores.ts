import { DocumentEntity, MetricValueEntity } from '@precis/db';
import type { RunContext, ScoringInput } from '@precis/engine/family';
import {
  type BenchmarkSpec,
  bootstrapInOrder,
  describeWork,
  isGeneratedSystem,
  metricValueId,
  type RowWork,
  upsertMetricValues,
} from '@precis/engine/family';
import {
  type CorrelationMethod,
  correlation,
  type SummaryLevelAgreement,
  summaryLevelAgreement,
} from '@precis/metrics';
import { In } from 'typeorm';
import { gevalStepsTaskId } from '../ids.js';
import { dimensionValueRows, gevalStepStatusRows } from '../store.js';
import { datasetSummaries } from '../summary/reviews.js';
import { dimensionMetricKey, dimensionMetrics } from './dimension-planner.js';
import { type DimensionsMetricSpec, judgeTemperature } from './dimensions-spec.js';
import { asDimension, judgeTemplate, templateRef } from './judge-templates.js';

export interface DimensionCell {
  // Mean judge score over the system's summaries (1-5); null unless the row's work is complete
  // (never a mean over only the judgments that survived).
  mean: number | null;
  ci95: [number, number] | null;
  bootstrapStd: number | null;
  // Summaries judged on this dimension.
  summaries: number;
  // Summaries whose judgment failed or was never written (failed or dead judge task).
  failed: number;
  // Mean human rating of the system's summaries, when the dataset has ratings.
  human: number | null;
}

export interface DimensionSystemRow {
  system: string;
  // Who wrote the summaries: model:<m>, engine:<e> or dataset:<system>.
  summarizer: string;
  dimensions: Record<string, DimensionCell>;
  // Judgments = one per (summary, dimension).
  work: RowWork;
  // 'complete' or what failed (describeWork).
  status: string;
}

// A summary the dimension judges had to judge, with its document's position in the run.
export interface JudgedDocument {
  system: string;
  documentId: string;
  producer: string;
  order: number;
}

// Summary level (per product across its summaries, averaged over products; constant skipped).
export interface DimensionHumanCorrelation extends SummaryLevelAgreement {
  // System level: per-system means correlated across systems.
  system: { spearman: number | null; kendall: number | null; pearson: number | null; systems: number };
}

// One dimensions metric's leaderboard; every number names the judge and template it came from.
export interface DimensionLeaderboard {
  metric: string;
  family: DimensionsMetricSpec['family'];
  judge: string;
  templates: Record<string, string>;
  samples: number;
  temperature: number;
  method: 'sample-mean' | 'logprob-weighted';
  dimensions: string[];
  rows: DimensionSystemRow[];
  // Correlation of each dimension's judge scores with the human ratings (null without ratings).
  humanCorrelation: Record<string, DimensionHumanCorrelation> | null;
  // Dimensions left unjudged because G-Eval could not write their evaluation steps.
  failedSteps: string[];
  bootstrapResamples: number;
}

// What one dimension's scoring needs: judge values and human ratings by (document, system).
interface DimensionInputs {
  values: Map<string, number | null>;
  human: Map<string, Record<string, number>>;
  resamples: number;
  seed: number;
}

const METHODS: CorrelationMethod[] = ['spearman', 'kendall', 'pearson'];
const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
const avg = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const pairKey = (documentId: string, system: string) => `${documentId}\u0000${system}`;

function safeCorrelation(x: number[], y: number[], method: CorrelationMethod): number | null {
  if (x.length < 2) return null;
  try {
    return finite(correlation(x, y, method));
  } catch {
    return null;
  }
}

// The systems of a dimensions board, by name: every system with a summary, and every generated
// system of the spec even when all its summaries failed (its row then says so).
function boardSystems(
  spec: BenchmarkSpec,
  summaries: readonly JudgedDocument[],
  runDocuments: number,
): { system: string; summarizer: string; docs: JudgedDocument[]; work: RowWork }[] {
  const generated = new Map(
    spec.systems
      .filter(isGeneratedSystem)
      .map((s) => [s.name, s.model !== undefined ? `model:${s.model}` : `engine:${s.engine}`]),
  );
  const names = [...new Set([...summaries.map((s) => s.system), ...generated.keys()])].sort();
  return names.map((system) => {
    const docs = summaries
      .filter((s) => s.system === system)
      .sort((a, b) => a.order - b.order || a.documentId.localeCompare(b.documentId));
    // Dataset systems have the candidates the data has; generated ones owe every run document.
    const expected = generated.has(system) ? runDocuments : docs.length;
    return {
      system,
      summarizer: docs[0]?.producer ?? generated.get(system)!,
      docs,
      work: {
        summaries: { expected, failed: expected - docs.length },
        judgments: { expected: 0, failed: 0 },
      },
    };
  });
}

// One (system, dimension) cell; also feeds the per-product (judge, human) pairs.
function dimensionCell(
  row: { system: string; summarizer: string; docs: JudgedDocument[]; work: RowWork },
  dim: string,
  inputs: DimensionInputs,
  byDoc: Map<string, { m: number[]; h: number[] }>,
): DimensionCell {
  const scored: { order: number; value: number }[] = [];
  const humans: number[] = [];
  // Ratings belong to the dataset's own summaries, never to a generated namesake.
  const rated = row.summarizer.startsWith('dataset:');
  for (const d of row.docs) {
    const v = inputs.values.get(`${pairKey(d.documentId, row.system)}\u0000${dim}`);
    const h = rated ? inputs.human.get(pairKey(d.documentId, row.system))?.[dim] : undefined;
    if (h !== undefined) humans.push(h);
    if (v === undefined || v === null) continue;
    scored.push({ order: d.order, value: v });
    if (h === undefined) continue;
    const g = byDoc.get(d.documentId) ?? { m: [], h: [] };
    g.m.push(v);
    g.h.push(h);
    byDoc.set(d.documentId, g);
  }
  const failed = row.docs.length - scored.length;
  row.work.judgments.expected += row.docs.length;
  row.work.judgments.failed += failed;
  const complete = failed === 0 && row.work.summaries.failed === 0;
  const boot = complete
    ? bootstrapInOrder(scored, { resamples: inputs.resamples, seed: `${inputs.seed}:${row.system}:${dim}` })
    : null;
  return {
    mean: boot ? boot.mean : null,
    ci95: boot && Number.isFinite(boot.ci[0]) ? [boot.ci[0], boot.ci[1]] : null,
    bootstrapStd: boot ? finite(boot.std) : null,
    summaries: scored.length,
    failed,
    human: avg(humans),
  };
}

// Summary level (per product, averaged) and system level agreement of one dimension with humans.
function humanCorrelationOf(
  byDoc: Map<string, { m: number[]; h: number[] }>,
  rows: readonly DimensionSystemRow[],
  dim: string,
): DimensionHumanCorrelation {
  const groups = [...byDoc.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([, g]) => g);
  const summaryLevel = summaryLevelAgreement(
    groups.map((g) => g.m),
    groups.map((g) => g.h),
  );
  // Systems with a complete judge mean and a human mean.
  const sm = rows.flatMap((r) => {
    const c = r.dimensions[dim];
    return c && c.mean !== null && c.human !== null ? [{ m: c.mean, h: c.human }] : [];
  });
  const [ssp, skd, spe] = METHODS.map((m) =>
    safeCorrelation(
      sm.map((p) => p.m),
      sm.map((p) => p.h),
      m,
    ),
  );
  return { ...summaryLevel, system: { spearman: ssp!, kendall: skd!, pearson: spe!, systems: sm.length } };
}

// The system-level metric values of one dimension, and its correlation with humans if any.
function dimensionValues(
  runId: string,
  dim: string,
  rows: readonly DimensionSystemRow[],
  correlationWithHumans: DimensionHumanCorrelation | undefined,
  ref: { metric: string; family: string; judge: string; template: string },
): Partial<MetricValueEntity>[] {
  const producedBy = `${ref.judge} ${ref.template}`;
  const values: Partial<MetricValueEntity>[] = rows.map((row) => ({
    id: metricValueId(runId, row.system, null, `dimension:${dim}`),
    runId,
    system: row.system,
    documentId: null,
    metric: `dimension:${dim}`,
    value: row.dimensions[dim]!.mean,
    details: { ...row.dimensions[dim], status: row.status, ...ref },
    producedBy,
  }));
  if (correlationWithHumans)
    values.push({
      id: metricValueId(runId, '*', null, `correlation:dimension:${dim}`),
      runId,
      system: '*',
      documentId: null,
      metric: `correlation:dimension:${dim}`,
      value: correlationWithHumans.spearman,
      details: { ...correlationWithHumans, against: 'mean human rating', ...ref },
      producedBy,
    });
  return values;
}

async function loadInputs(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  summaries: readonly JudgedDocument[],
): Promise<DimensionInputs & { stepsStatus: Map<string, string> }> {
  const rows = await dimensionValueRows(ctx.db, runId);
  const values = new Map<string, number | null>();
  for (const r of rows)
    values.set(
      `${pairKey(r.document_id, r.system)}\u0000${r.metric.slice('dimension:'.length)}`,
      r.value === null ? null : Number(r.value),
    );
  const docIds = [...new Set(summaries.map((s) => s.documentId))].sort();
  const docs = docIds.length
    ? await ctx.db.getRepository(DocumentEntity).find({ where: { id: In(docIds) }, order: { id: 'ASC' } })
    : [];
  // Human ratings by document and system (dataset candidates only).
  const human = new Map<string, Record<string, number>>();
  for (const d of docs) for (const c of datasetSummaries(d)) human.set(pairKey(d.id, c.system), c.ratings);
  const steps = await gevalStepStatusRows(ctx.db, runId);
  return {
    values,
    human,
    resamples: spec.bootstrap.resamples,
    seed: spec.seed,
    stepsStatus: new Map(steps.map((t) => [t.id, t.status])),
  };
}

// Per system and dimension: mean judge score with a bootstrap CI, beside the human mean; per
// dimension: correlation with the human ratings. Writes system-level metric_values rows.
export async function scoreDimensionMetrics(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  summaries: readonly JudgedDocument[],
  runDocuments: number,
): Promise<DimensionLeaderboard[]> {
  const metrics = dimensionMetrics(spec);
  if (metrics.length === 0) return [];
  const inputs = await loadInputs(ctx, runId, spec, summaries);
  const boards: DimensionLeaderboard[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  for (const { index, metric } of metrics) {
    const key = dimensionMetricKey(index);
    const dims = metric.dimensions.map((d) => asDimension(d, `metrics[${index}]`));
    const templates = Object.fromEntries(
      dims.map((d) => [d, templateRef(judgeTemplate(metric.family, d, spec.templateOverrides))]),
    );
    const judge = `model:${metric.judge.model}`;
    const systems = boardSystems(spec, summaries, runDocuments);
    const cells = new Map<string, Record<string, DimensionCell>>(systems.map((s) => [s.system, {}]));
    const byDim = new Map<string, Map<string, { m: number[]; h: number[] }>>();
    for (const dim of dims) {
      const byDoc = new Map<string, { m: number[]; h: number[] }>();
      byDim.set(dim, byDoc);
      for (const s of systems) cells.get(s.system)![dim] = dimensionCell(s, dim, inputs, byDoc);
    }
    const rows: DimensionSystemRow[] = systems.map((s) => ({
      system: s.system,
      summarizer: s.summarizer,
      dimensions: cells.get(s.system)!,
      work: s.work,
      status: describeWork(s.work),
    }));
    const humanCorrelation: Record<string, DimensionHumanCorrelation> = {};
    for (const dim of dims) {
      const ref = { metric: key, family: metric.family, judge, template: templates[dim]! };
      const byDoc = byDim.get(dim)!;
      if (byDoc.size) humanCorrelation[dim] = humanCorrelationOf(byDoc, rows, dim);
      values.push(...dimensionValues(runId, dim, rows, humanCorrelation[dim], ref));
    }
    boards.push({
      metric: key,
      family: metric.family,
      judge,
      templates,
      samples: metric.samples,
      temperature: judgeTemperature(metric),
      method: metric.logprobs ? 'logprob-weighted' : 'sample-mean',
      dimensions: dims,
      rows,
      humanCorrelation: Object.keys(humanCorrelation).length ? humanCorrelation : null,
      failedSteps:
        metric.family === 'g-eval'
          ? dims.filter((d) => inputs.stepsStatus.get(gevalStepsTaskId(runId, key, d)) !== 'done')
          : [],
      bootstrapResamples: spec.bootstrap.resamples,
    });
  }
  await upsertMetricValues(ctx.db, values);
  return boards;
}

// The opinion family's scorer: the dimension leaderboards join the score task's result.
export async function scoreDimensions(
  ctx: RunContext,
  input: ScoringInput,
): Promise<{ dimensions?: DimensionLeaderboard[] }> {
  const boards = await scoreDimensionMetrics(
    ctx,
    input.runId,
    input.spec,
    input.summaries,
    input.runDocuments,
  );
  return boards.length ? { dimensions: boards } : {};
}
