import {
  type CorrelationMethod,
  mannWhitneyU,
  mean,
  standardDeviation,
  summaryLevelCorrelation,
  welchTTest,
} from '@precis/metrics';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import { MetaInputError } from './errors.js';
import { readSampleScoresFile, type SampleScoresFile, type SampleScoresRow } from './sample-scores-file.js';

export interface MetricComparison {
  a: { mean: number | null; std: number | null; n: number };
  b: { mean: number | null; std: number | null; n: number };
  mannWhitney: { u: number; pValue: number | null; method: 'exact' | 'asymptotic' };
  welch: { t: number | null; df: number | null; pValue: number | null; meanDifference: number };
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

// Significance of the difference between two metrics' per-group correlations: two-sided
// Mann-Whitney U (tie-corrected, scipy defaults) and Welch's t-test.
export function compareMetrics(input: { a: readonly number[]; b: readonly number[] }): MetricComparison {
  const { a, b } = input;
  if (a.length < 2 || b.length < 2) {
    throw new MetaInputError(
      `comparing metrics needs at least 2 per-group correlations on each side (got ${a.length} and ${b.length}); use more groups`,
    );
  }
  const mw = mannWhitneyU(a, b);
  const w = welchTTest(a, b);
  const describe = (x: readonly number[]) => ({
    mean: finite(mean(x)),
    std: finite(standardDeviation(x)),
    n: x.length,
  });
  return {
    a: describe(a),
    b: describe(b),
    mannWhitney: { u: mw.u1, pValue: finite(mw.pValue), method: mw.method },
    welch: { t: finite(w.t), df: finite(w.df), pValue: finite(w.pValue), meanDifference: w.meanDifference },
  };
}

export interface GroupCorrelations {
  // One summary-level correlation per group (groups with no usable product are left out).
  correlations: number[];
  // Samples per group (the last groups may hold one more when n is not a multiple).
  groupSizes: number[];
}

// Splits each summary's n samples into `groups` contiguous groups; a group's score for a
// summary is the mean of its parsed samples; per group, the summary-level correlation with the
// human ratings (per product across systems, averaged over products).
export function groupCorrelations(
  rows: readonly SampleScoresRow[],
  groups: number,
  method: CorrelationMethod = 'spearman',
): GroupCorrelations {
  if (!Number.isInteger(groups) || groups < 1)
    throw new MetaInputError(`--groups must be a positive integer, got ${groups}`);
  const n = Math.min(...rows.map((r) => r.samples.length));
  if (n < groups) {
    throw new MetaInputError(`a summary has only ${n} samples; it cannot be split into ${groups} groups`, {
      field: 'samples',
    });
  }
  const bounds = Array.from({ length: groups + 1 }, (_, g) => Math.floor((g * n) / groups));
  const byProduct = new Map<string, SampleScoresRow[]>();
  for (const r of rows) byProduct.set(r.product, [...(byProduct.get(r.product) ?? []), r]);
  const correlations: number[] = [];
  for (let g = 0; g < groups; g++) {
    const metric: number[][] = [];
    const human: number[][] = [];
    for (const list of byProduct.values()) {
      const m: number[] = [];
      const h: number[] = [];
      for (const r of list) {
        const parsed = r.samples.slice(bounds[g], bounds[g + 1]).filter((v): v is number => v !== null);
        if (parsed.length === 0) continue;
        m.push(parsed.reduce((s, v) => s + v, 0) / parsed.length);
        h.push(r.human);
      }
      metric.push(m);
      human.push(h);
    }
    const r = summaryLevelCorrelation(metric, human, method);
    if (Number.isFinite(r.value)) correlations.push(r.value);
  }
  return { correlations, groupSizes: bounds.slice(1).map((b, g) => b - bounds[g]!) };
}

export interface CompareReport {
  a: { file: string; judges: string[] };
  b: { file: string; judges: string[] };
  groups: number;
  method: CorrelationMethod;
  producedBy: string;
  dimensions: Partial<
    Record<OpinionDimensionId, MetricComparison & { correlations: { a: number[]; b: number[] } }>
  >;
}

export function compareSampleScores(
  a: SampleScoresFile,
  b: SampleScoresFile,
  groups: number,
  method: CorrelationMethod = 'spearman',
): CompareReport {
  const dimensions: CompareReport['dimensions'] = {};
  for (const dim of OPINION_DIMENSION_IDS) {
    const ra = a.rows.filter((r) => r.dimension === dim);
    const rb = b.rows.filter((r) => r.dimension === dim);
    if (ra.length === 0 || rb.length === 0) continue;
    const ca = groupCorrelations(ra, groups, method).correlations;
    const cb = groupCorrelations(rb, groups, method).correlations;
    dimensions[dim] = { ...compareMetrics({ a: ca, b: cb }), correlations: { a: ca, b: cb } };
  }
  if (Object.keys(dimensions).length === 0) {
    throw new MetaInputError(`${a.file} and ${b.file} share no dimension; nothing to compare`);
  }
  return {
    a: { file: a.file, judges: a.judges },
    b: { file: b.file, judges: b.judges },
    groups,
    method,
    producedBy: `per-group summary-level ${method} with human ratings (samples split into ${groups} contiguous groups); two-sided Mann-Whitney U (tie-corrected) and Welch t-test between the two sets of group correlations`,
    dimensions,
  };
}

export async function compareSampleScoreFiles(
  aPath: string,
  bPath: string,
  groups: number,
  method: CorrelationMethod = 'spearman',
): Promise<CompareReport> {
  const [a, b] = await Promise.all([readSampleScoresFile(aPath), readSampleScoresFile(bPath)]);
  return compareSampleScores(a, b, groups, method);
}
