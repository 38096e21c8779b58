import { type CorrelationMethod, correlation, summaryLevelCorrelation } from '@precis/metrics';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import { loadJudgeScores } from './judge-scores.js';
import {
  type MetricScores,
  ROUGE_METRICS,
  type RougeMetricName,
  rougeScores,
  scoreFor,
} from './metric-scores.js';
import {
  loadOpinionDataset,
  type OpinionProduct,
  SUMMEVAL_OP_HUMAN_SYSTEM,
  summaryKey,
} from './opinion-dataset.js';

export type CorrelationLevel = 'summary' | 'system';

export interface DimensionCorrelation {
  // null when undefined (no usable product, or constant vectors at system level).
  spearman: number | null;
  kendall: number | null;
  pearson: number | null;
  // Summary level: products whose vectors were usable (not constant); system level: products
  // contributing to the system means.
  products: number;
  // Summary level: products skipped because a vector was constant; system level: 0.
  skipped: number;
  // Summaries with both a metric and a human score.
  summaries: number;
  // System level only: number of systems correlated.
  systems?: number;
}

export interface CorrelationReport {
  dataset: string;
  level: CorrelationLevel;
  // What produced the metric numbers, and how the correlation was computed.
  producedBy: string;
  method: string;
  dimensions: Record<OpinionDimensionId, DimensionCorrelation>;
}

export type CorrelateMetric = RougeMetricName | { judgeRun: string } | MetricScores;

export interface CorrelateOptions {
  dataset: string;
  metric: CorrelateMetric;
  // Reference system for reference-based metrics (default: the human summaries).
  reference?: string;
  level?: CorrelationLevel;
  // Porter stemming for ROUGE (default on).
  stem?: boolean;
}

const METHODS: CorrelationMethod[] = ['spearman', 'kendall', 'pearson'];

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

export async function correlateWithHumans(
  ds: DataSource,
  opts: CorrelateOptions,
): Promise<CorrelationReport> {
  const dataset = await loadOpinionDataset(ds, opts.dataset);
  let scores: MetricScores;
  if (typeof opts.metric === 'string') {
    scores = rougeScores(dataset.products, opts.metric, {
      reference: opts.reference ?? SUMMEVAL_OP_HUMAN_SYSTEM,
      stem: opts.stem,
    });
  } else if ('judgeRun' in opts.metric) {
    scores = await loadJudgeScores(ds, opts.metric.judgeRun, dataset.products);
  } else scores = opts.metric;
  return { dataset: dataset.name, ...correlateScores(dataset.products, scores, opts.level ?? 'summary') };
}

export function isRougeMetric(name: string): name is RougeMetricName {
  return (ROUGE_METRICS as readonly string[]).includes(name);
}

// Pure part: correlate metric scores with the mean human ratings per dimension.
export function correlateScores(
  products: readonly OpinionProduct[],
  metric: MetricScores,
  level: CorrelationLevel,
): Omit<CorrelationReport, 'dataset'> {
  const dimensions = {} as Record<OpinionDimensionId, DimensionCorrelation>;
  for (const dim of OPINION_DIMENSION_IDS) {
    dimensions[dim] =
      level === 'summary' ? summaryLevel(products, metric, dim) : systemLevel(products, metric, dim);
  }
  const method =
    level === 'summary'
      ? 'summary-level: per product across its summaries, averaged over products; constant vectors skipped'
      : 'system-level: per-system means over products, correlated across systems';
  return { level, producedBy: metric.producedBy, method, dimensions };
}

function pairs(p: OpinionProduct, metric: MetricScores, dim: OpinionDimensionId) {
  const m: number[] = [];
  const h: number[] = [];
  const systems: string[] = [];
  for (const s of p.summaries) {
    const mv = scoreFor(metric, summaryKey(p.id, s.system), dim);
    const hv = s.ratings[dim];
    if (mv === undefined || hv === undefined) continue;
    m.push(mv);
    h.push(hv);
    systems.push(s.system);
  }
  return { m, h, systems };
}

function summaryLevel(
  products: readonly OpinionProduct[],
  metric: MetricScores,
  dim: OpinionDimensionId,
): DimensionCorrelation {
  const metricByGroup: number[][] = [];
  const humanByGroup: number[][] = [];
  let summaries = 0;
  for (const p of products) {
    const { m, h } = pairs(p, metric, dim);
    summaries += m.length;
    metricByGroup.push(m);
    humanByGroup.push(h);
  }
  const results = METHODS.map((method) => summaryLevelCorrelation(metricByGroup, humanByGroup, method));
  const [sp, kd, pe] = results;
  return {
    spearman: finite(sp!.value),
    kendall: finite(kd!.value),
    pearson: finite(pe!.value),
    products: sp!.groupsUsed,
    skipped: sp!.groupsSkipped.length,
    summaries,
  };
}

function systemLevel(
  products: readonly OpinionProduct[],
  metric: MetricScores,
  dim: OpinionDimensionId,
): DimensionCorrelation {
  const sums = new Map<string, { m: number; h: number; n: number }>();
  let summaries = 0;
  let used = 0;
  for (const p of products) {
    const { m, h, systems } = pairs(p, metric, dim);
    if (m.length > 0) used++;
    summaries += m.length;
    systems.forEach((system, i) => {
      const acc = sums.get(system) ?? { m: 0, h: 0, n: 0 };
      acc.m += m[i]!;
      acc.h += h[i]!;
      acc.n++;
      sums.set(system, acc);
    });
  }
  const mm = [...sums.values()].map((a) => a.m / a.n);
  const hm = [...sums.values()].map((a) => a.h / a.n);
  const [spearman, kendall, pearson] = METHODS.map((method) => finite(correlation(mm, hm, method)));
  return {
    spearman: spearman!,
    kendall: kendall!,
    pearson: pearson!,
    products: used,
    skipped: 0,
    summaries,
    systems: mm.length,
  };
}
