import { assertFiniteArray } from '../validate.js';
import { type CorrelationMethod, correlation } from './correlation.js';
import { mean } from './descriptive.js';

export interface SummaryLevelCorrelation {
  // Mean of the per-group coefficients; NaN when no group was usable.
  value: number;
  groupsUsed: number;
  // Groups skipped because a vector was constant or had fewer than 2 values.
  groupsSkipped: number[];
  perGroup: number[];
}

// Summary-level correlation (Bhandari et al.): correlate metric and human scores within each
// group (e.g. the summaries of one product), then average over the groups where it is defined.
export function summaryLevelCorrelation(
  metricByGroup: readonly (readonly number[])[],
  humanByGroup: readonly (readonly number[])[],
  method: CorrelationMethod,
): SummaryLevelCorrelation {
  if (metricByGroup.length !== humanByGroup.length) {
    throw new RangeError(
      `metricByGroup has ${metricByGroup.length} groups but humanByGroup has ${humanByGroup.length}; they must be paired`,
    );
  }
  const perGroup: number[] = [];
  const groupsSkipped: number[] = [];
  let sum = 0;
  metricByGroup.forEach((metric, g) => {
    const human = humanByGroup[g]!;
    if (metric.length !== human.length) {
      throw new RangeError(`group ${g}: ${metric.length} metric scores but ${human.length} human scores`);
    }
    const r = correlation(metric, human, method);
    perGroup.push(r);
    if (Number.isNaN(r)) groupsSkipped.push(g);
    else sum += r;
  });
  const used = perGroup.length - groupsSkipped.length;
  return { value: used > 0 ? sum / used : Number.NaN, groupsUsed: used, groupsSkipped, perGroup };
}

export interface SystemLevelCorrelation {
  value: number;
  systems: number;
  metricMeans: number[];
  humanMeans: number[];
}

// System-level correlation: each row holds one system's scores; correlate the per-system means.
export function systemLevelCorrelation(
  metricBySystem: readonly (readonly number[])[],
  humanBySystem: readonly (readonly number[])[],
  method: CorrelationMethod,
): SystemLevelCorrelation {
  if (metricBySystem.length !== humanBySystem.length) {
    throw new RangeError(
      `metricBySystem has ${metricBySystem.length} systems but humanBySystem has ${humanBySystem.length}; they must be paired`,
    );
  }
  const means = (rows: readonly (readonly number[])[], name: string): number[] =>
    rows.map((row, s) => {
      if (row.length === 0)
        throw new RangeError(`${name}[${s}] is empty; every system needs at least one score`);
      assertFiniteArray(row, `${name}[${s}]`);
      return mean(row);
    });
  const metricMeans = means(metricBySystem, 'metricBySystem');
  const humanMeans = means(humanBySystem, 'humanBySystem');
  return {
    value: correlation(metricMeans, humanMeans, method),
    systems: metricMeans.length,
    metricMeans,
    humanMeans,
  };
}

// Summary-level agreement of a metric with human ratings by the three usual coefficients (null
// where undefined), with the groups (e.g. products) used and skipped and the summaries seen.
export interface SummaryLevelAgreement {
  spearman: number | null;
  kendall: number | null;
  pearson: number | null;
  products: number;
  skipped: number;
  summaries: number;
}

export function summaryLevelAgreement(
  metricByGroup: readonly (readonly number[])[],
  humanByGroup: readonly (readonly number[])[],
): SummaryLevelAgreement {
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const [sp, kd, pe] = (['spearman', 'kendall', 'pearson'] as const).map((method) =>
    summaryLevelCorrelation(metricByGroup, humanByGroup, method),
  );
  return {
    spearman: finite(sp!.value),
    kendall: finite(kd!.value),
    pearson: finite(pe!.value),
    products: sp!.groupsUsed,
    skipped: sp!.groupsSkipped.length,
    summaries: metricByGroup.reduce((a, g) => a + g.length, 0),
  };
}
