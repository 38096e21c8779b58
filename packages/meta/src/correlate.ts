import {
  bootstrapStatistic,
  type CorrelationMethod,
  correlation,
  type SummaryLevelAgreement,
  summaryLevelAgreement,
  summaryLevelCorrelation,
} from '@precis/metrics';
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

// Coefficients null when undefined (no usable product, or constant vectors at system level).
// products: summary level, those whose vectors were usable; system level, those contributing to
// the system means. skipped: summary level, products with a constant vector; system level, 0.
// summaries: those with both a metric and a human score.
export interface DimensionCorrelation extends SummaryLevelAgreement {
  // System level only: number of systems correlated.
  systems?: number;
  // With bootstrap: 95% percentile intervals, products resampled with replacement.
  ci95?: Record<CorrelationMethod, [number, number] | null>;
}

export interface CorrelationBootstrap {
  resamples?: number;
  seed?: number;
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
  // Bootstrap confidence intervals of the coefficients (off by default).
  bootstrap?: CorrelationBootstrap;
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
  return {
    dataset: dataset.name,
    ...correlateScores(dataset.products, scores, opts.level ?? 'summary', opts.bootstrap),
  };
}

export function isRougeMetric(name: string): name is RougeMetricName {
  return (ROUGE_METRICS as readonly string[]).includes(name);
}

// Pure part: correlate metric scores with the mean human ratings per dimension.
export function correlateScores(
  products: readonly OpinionProduct[],
  metric: MetricScores,
  level: CorrelationLevel,
  bootstrap?: CorrelationBootstrap,
): Omit<CorrelationReport, 'dataset'> {
  const dimensions = {} as Record<OpinionDimensionId, DimensionCorrelation>;
  for (const dim of OPINION_DIMENSION_IDS) {
    const groups = products.map((p) => pairs(p, metric, dim));
    const result = level === 'summary' ? summaryLevel(groups) : systemLevel(groups);
    if (bootstrap) result.ci95 = confidenceIntervals(groups, level, bootstrap);
    dimensions[dim] = result;
  }
  const method =
    (level === 'summary'
      ? 'summary-level: per product across its summaries, averaged over products; constant vectors skipped'
      : 'system-level: per-system means over products, correlated across systems') +
    (bootstrap
      ? `; 95% percentile bootstrap CIs over products (${bootstrap.resamples ?? 1000} resamples, seed ${bootstrap.seed ?? 1})`
      : '');
  return { level, producedBy: metric.producedBy, method, dimensions };
}

interface Pairs {
  m: number[];
  h: number[];
  systems: string[];
}

function pairs(p: OpinionProduct, metric: MetricScores, dim: OpinionDimensionId): Pairs {
  const out: Pairs = { m: [], h: [], systems: [] };
  for (const s of p.summaries) {
    const mv = scoreFor(metric, summaryKey(p.id, s.system), dim);
    const hv = s.ratings[dim];
    if (mv === undefined || hv === undefined) continue;
    out.m.push(mv);
    out.h.push(hv);
    out.systems.push(s.system);
  }
  return out;
}

function summaryLevel(groups: readonly Pairs[]): DimensionCorrelation {
  return summaryLevelAgreement(
    groups.map((g) => g.m),
    groups.map((g) => g.h),
  );
}

function systemMeans(groups: readonly Pairs[]): { mm: number[]; hm: number[] } {
  const sums = new Map<string, { m: number; h: number; n: number }>();
  for (const g of groups) {
    g.systems.forEach((system, i) => {
      const acc = sums.get(system) ?? { m: 0, h: 0, n: 0 };
      acc.m += g.m[i]!;
      acc.h += g.h[i]!;
      acc.n++;
      sums.set(system, acc);
    });
  }
  return {
    mm: [...sums.values()].map((a) => a.m / a.n),
    hm: [...sums.values()].map((a) => a.h / a.n),
  };
}

function systemLevel(groups: readonly Pairs[]): DimensionCorrelation {
  const { mm, hm } = systemMeans(groups);
  const [spearman, kendall, pearson] = METHODS.map((method) => finite(correlation(mm, hm, method)));
  return {
    spearman: spearman!,
    kendall: kendall!,
    pearson: pearson!,
    products: groups.filter((g) => g.m.length > 0).length,
    skipped: 0,
    summaries: groups.reduce((s, g) => s + g.m.length, 0),
    systems: mm.length,
  };
}

// Products are the resampling unit at both levels (they are the independent draws).
function confidenceIntervals(
  groups: readonly Pairs[],
  level: CorrelationLevel,
  opts: CorrelationBootstrap,
): NonNullable<DimensionCorrelation['ci95']> {
  const out = {} as NonNullable<DimensionCorrelation['ci95']>;
  for (const method of METHODS) {
    let r: ReturnType<typeof bootstrapStatistic>;
    if (level === 'summary') {
      // The coefficient is the mean of per-product values: resample those directly.
      const perGroup = summaryLevelCorrelation(
        groups.map((g) => g.m),
        groups.map((g) => g.h),
        method,
      ).perGroup;
      r = bootstrapStatistic(perGroup, meanOfFinite, { resamples: opts.resamples, seed: opts.seed });
    } else {
      const statistic = (sample: readonly Pairs[]): number => {
        const { mm, hm } = systemMeans(sample);
        return correlation(mm, hm, method);
      };
      r = bootstrapStatistic(groups, statistic, { resamples: opts.resamples, seed: opts.seed });
    }
    out[method] = Number.isFinite(r.ci[0]) ? [r.ci[0], r.ci[1]] : null;
  }
  return out;
}

// Mean over the products whose coefficient is defined (NaN = constant vector, skipped).
function meanOfFinite(values: readonly number[]): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n > 0 ? sum / n : Number.NaN;
}
