import { DocumentEntity, MetricValueEntity } from '@precis/db';
import { bootstrapMean, type CorrelationMethod, correlation, summaryLevelCorrelation } from '@precis/metrics';
import { In } from 'typeorm';
import { gevalStepsTaskId, metricValueId } from '../ids.js';
import { dimensionMetricKey, dimensionMetrics } from '../opinion/dimension-planner.js';
import { asDimension, judgeTemplate, templateRef } from '../opinion/judge-templates.js';
import { datasetSummaries } from '../opinion/reviews.js';
import type { RunContext } from '../planner/run-context.js';
import {
  type BenchmarkSpec,
  type DimensionsMetricSpec,
  judgeTemperature,
} from '../spec/benchmark-spec.schema.js';
import { upsertMetricValues } from './metric-values.js';

export interface DimensionCell {
  // Mean judge score over the system's summaries (1-5); null when none was scored.
  mean: number | null;
  ci95: [number, number] | null;
  bootstrapStd: number | null;
  summaries: number;
  // Summaries whose judgment failed (explicit failures, left out of the mean).
  failed: number;
  // Mean human rating of the same summaries, when the dataset has ratings.
  human: number | null;
}

export interface DimensionSystemRow {
  system: string;
  // Who wrote the summaries: model:<m>, engine:<e> or dataset:<system>.
  summarizer: string;
  dimensions: Record<string, DimensionCell>;
}

export interface DimensionHumanCorrelation {
  // Summary level (per product across its summaries, averaged over products; constant skipped).
  spearman: number | null;
  kendall: number | null;
  pearson: number | null;
  products: number;
  skipped: number;
  summaries: number;
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

interface ScoreRow {
  system: string;
  document_id: string;
  metric: string;
  value: number | string | null;
}

const METHODS: CorrelationMethod[] = ['spearman', 'kendall', 'pearson'];
const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
const avg = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

function safeCorrelation(x: number[], y: number[], method: CorrelationMethod): number | null {
  if (x.length < 2) return null;
  try {
    return finite(correlation(x, y, method));
  } catch {
    return null;
  }
}

// Per system and dimension: mean judge score with a bootstrap CI, beside the human mean; per
// dimension: correlation with the human ratings. Writes system-level metric_values rows.
export async function scoreDimensionMetrics(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  summarizers: ReadonlyMap<string, string>,
): Promise<DimensionLeaderboard[]> {
  const metrics = dimensionMetrics(spec);
  if (metrics.length === 0) return [];
  const rows = (await ctx.db.query(
    `SELECT system, document_id, metric, value FROM metric_values
      WHERE run_id = $1 AND document_id IS NOT NULL AND metric LIKE 'dimension:%'`,
    [runId],
  )) as ScoreRow[];
  const docIds = [...new Set(rows.map((r) => r.document_id))];
  const docs = docIds.length
    ? await ctx.db.getRepository(DocumentEntity).find({ where: { id: In(docIds) } })
    : [];
  // Human ratings by document and system (dataset candidates only).
  const human = new Map<string, Record<string, number>>();
  for (const d of docs) for (const c of datasetSummaries(d)) human.set(`${d.id}\u0000${c.system}`, c.ratings);
  const stepsStatus = new Map<string, string>(
    (
      (await ctx.db.query(`SELECT id, status FROM tasks WHERE run_id = $1 AND kind = 'geval-steps'`, [
        runId,
      ])) as {
        id: string;
        status: string;
      }[]
    ).map((t) => [t.id, t.status]),
  );
  const boards: DimensionLeaderboard[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  for (const { index, metric } of metrics) {
    const key = dimensionMetricKey(index);
    const dims = metric.dimensions.map((d) => asDimension(d, `metrics[${index}]`));
    const templates = Object.fromEntries(
      dims.map((d) => [d, templateRef(judgeTemplate(metric.family, d, spec.templateOverrides))]),
    );
    const judge = `model:${metric.judge.model}`;
    const systems = [...summarizers.keys()];
    const boardRows: DimensionSystemRow[] = systems.map((system) => ({
      system,
      summarizer: summarizers.get(system)!,
      dimensions: {},
    }));
    const humanCorrelation: Record<string, DimensionHumanCorrelation> = {};
    let anyHuman = false;
    for (const dim of dims) {
      const own = rows.filter((r) => r.metric === `dimension:${dim}`);
      // Per product: (judge, human) pairs across its summaries, for the summary-level correlation.
      const byDoc = new Map<string, { m: number[]; h: number[] }>();
      const sysPairs = new Map<string, { m: number[]; h: number[] }>();
      for (const row of boardRows) {
        const mine = own.filter((r) => r.system === row.system);
        const scored = mine
          .filter((r) => r.value !== null)
          .map((r) => ({ doc: r.document_id, v: Number(r.value) }));
        const humans: number[] = [];
        // Ratings belong to the dataset's own summaries, never to a generated namesake.
        const rated = row.summarizer.startsWith('dataset:');
        for (const s of scored) {
          const h = rated ? human.get(`${s.doc}\u0000${row.system}`)?.[dim] : undefined;
          if (h === undefined) continue;
          humans.push(h);
          const g = byDoc.get(s.doc) ?? { m: [], h: [] };
          g.m.push(s.v);
          g.h.push(h);
          byDoc.set(s.doc, g);
        }
        const boot = scored.length
          ? bootstrapMean(
              scored.map((s) => s.v),
              { resamples: spec.bootstrap.resamples, seed: `${spec.seed}:${row.system}:${dim}` },
            )
          : null;
        row.dimensions[dim] = {
          mean: boot ? boot.mean : null,
          ci95: boot && Number.isFinite(boot.ci[0]) ? [boot.ci[0], boot.ci[1]] : null,
          bootstrapStd: boot ? finite(boot.std) : null,
          summaries: scored.length,
          failed: mine.length - scored.length,
          human: avg(humans),
        };
        if (boot && humans.length === scored.length)
          sysPairs.set(row.system, { m: [boot.mean], h: [avg(humans)!] });
        values.push({
          id: metricValueId(runId, row.system, null, `dimension:${dim}`),
          runId,
          system: row.system,
          documentId: null,
          metric: `dimension:${dim}`,
          value: row.dimensions[dim]!.mean,
          details: {
            ...row.dimensions[dim],
            metric: key,
            family: metric.family,
            judge,
            template: templates[dim],
          },
          producedBy: `${judge} ${templates[dim]}`,
        });
      }
      if (byDoc.size === 0) continue;
      anyHuman = true;
      const groups = [...byDoc.values()];
      const [sp, kd, pe] = METHODS.map((m) =>
        summaryLevelCorrelation(
          groups.map((g) => g.m),
          groups.map((g) => g.h),
          m,
        ),
      );
      const sm = [...sysPairs.values()];
      const [ssp, skd, spe] = METHODS.map((m) =>
        safeCorrelation(
          sm.map((p) => p.m[0]!),
          sm.map((p) => p.h[0]!),
          m,
        ),
      );
      humanCorrelation[dim] = {
        spearman: finite(sp!.value),
        kendall: finite(kd!.value),
        pearson: finite(pe!.value),
        products: sp!.groupsUsed,
        skipped: sp!.groupsSkipped.length,
        summaries: groups.reduce((a, g) => a + g.m.length, 0),
        system: { spearman: ssp!, kendall: skd!, pearson: spe!, systems: sm.length },
      };
      values.push({
        id: metricValueId(runId, '*', null, `correlation:dimension:${dim}`),
        runId,
        system: '*',
        documentId: null,
        metric: `correlation:dimension:${dim}`,
        value: humanCorrelation[dim]!.spearman,
        details: {
          ...humanCorrelation[dim],
          against: 'mean human rating',
          metric: key,
          judge,
          template: templates[dim],
        },
        producedBy: `${judge} ${templates[dim]}`,
      });
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
      rows: boardRows,
      humanCorrelation: anyHuman ? humanCorrelation : null,
      failedSteps:
        metric.family === 'g-eval'
          ? dims.filter((d) => stepsStatus.get(gevalStepsTaskId(runId, key, d)) !== 'done')
          : [],
      bootstrapResamples: spec.bootstrap.resamples,
    });
  }
  await upsertMetricValues(ctx.db, values);
  return boards;
}
