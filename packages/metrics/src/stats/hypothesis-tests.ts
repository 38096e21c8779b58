import { assertFiniteArray } from '../validate.js';
import { mean, variance } from './descriptive.js';
import { averageRanks, tieGroupSizes } from './ranks.js';
import { normalSf, studentTCdf, studentTSf } from './special-functions.js';

export type Alternative = 'two-sided' | 'less' | 'greater';

export interface MannWhitneyOptions {
  alternative?: Alternative;
  // Continuity correction of the normal approximation (scipy default true).
  continuity?: boolean;
  // 'auto' mirrors scipy: exact when there are no ties and either sample has at most 8 values.
  method?: 'auto' | 'exact' | 'asymptotic';
}

export interface MannWhitneyResult {
  // U statistic of the first sample (scipy's `statistic`), and of the second.
  u1: number;
  u2: number;
  pValue: number;
  method: 'exact' | 'asymptotic';
  // Standardized statistic of the normal approximation (NaN for the exact method).
  z: number;
}

// Mann-Whitney U test with the semantics of scipy.stats.mannwhitneyu (default arguments).
export function mannWhitneyU(
  x: readonly number[],
  y: readonly number[],
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  assertFiniteArray(x, 'x');
  assertFiniteArray(y, 'y');
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0)
    throw new RangeError(`Mann-Whitney U needs two non-empty samples (got ${n1} and ${n2})`);
  const alternative = options.alternative ?? 'two-sided';
  const continuity = options.continuity ?? true;
  const all = [...x, ...y];
  const ranks = averageRanks(all);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += ranks[i]!;
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  const ties = tieGroupSizes(all);
  let method = options.method ?? 'auto';
  if (method === 'auto') method = (n1 > 8 && n2 > 8) || ties.length > 0 ? 'asymptotic' : 'exact';
  if (method === 'exact' && ties.length > 0) {
    throw new RangeError('the exact Mann-Whitney distribution assumes no ties; use method "asymptotic"');
  }
  // One upper-tail probability of a U statistic; the two-sided test doubles it.
  const u = alternative === 'greater' ? u1 : alternative === 'less' ? u2 : Math.max(u1, u2);
  const factor = alternative === 'two-sided' ? 2 : 1;
  if (method === 'exact') {
    const p = Math.min(1, factor * exactUpperTail(u, n1, n2));
    return { u1, u2, pValue: p, method, z: Number.NaN };
  }
  const n = n1 + n2;
  const tieTerm = ties.reduce((s, t) => s + t ** 3 - t, 0);
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = (u - (n1 * n2) / 2 - (continuity ? 0.5 : 0)) / sd;
  // All values equal: sd = 0, nothing to test.
  const p = sd === 0 ? Number.NaN : Math.min(1, factor * normalSf(z));
  return { u1, u2, pValue: p, method, z };
}

// P(U >= u) under H0 without ties. Counts of U follow the Gaussian binomial coefficient
// [n1+n2 choose n1]_q, built as a product of (1 - q^(n2+i)) / (1 - q^i).
function exactUpperTail(u: number, n1: number, n2: number): number {
  const m = Math.min(n1, n2);
  const k = Math.max(n1, n2);
  const maxU = m * k;
  let poly = new Array<number>(maxU + 1).fill(0);
  poly[0] = 1;
  let total = 1;
  for (let i = 1; i <= m; i++) {
    const next = poly.slice();
    const shift = k + i;
    for (let d = maxU; d >= shift; d--) next[d]! -= poly[d - shift]!;
    // Division by (1 - q^i): b[d] = a[d] + b[d - i].
    for (let d = i; d <= maxU; d++) next[d]! += next[d - i]!;
    poly = next;
    total = (total * (k + i)) / i;
  }
  let tail = 0;
  for (let d = Math.ceil(u - 1e-9); d <= maxU; d++) tail += poly[d]!;
  return tail / total;
}

export interface WelchResult {
  t: number;
  df: number;
  pValue: number;
  meanDifference: number;
}

// Welch's unequal-variance t-test (scipy.stats.ttest_ind(equal_var=False)); NaN when both
// samples have zero variance.
export function welchTTest(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): WelchResult {
  assertFiniteArray(x, 'x');
  assertFiniteArray(y, 'y');
  if (x.length < 2 || y.length < 2) {
    throw new RangeError(`Welch t-test needs at least 2 values per sample (got ${x.length} and ${y.length})`);
  }
  const vx = variance(x) / x.length;
  const vy = variance(y) / y.length;
  const meanDifference = mean(x) - mean(y);
  const se2 = vx + vy;
  if (se2 === 0) return { t: Number.NaN, df: Number.NaN, pValue: Number.NaN, meanDifference };
  const t = meanDifference / Math.sqrt(se2);
  const df = (se2 * se2) / ((vx * vx) / (x.length - 1) + (vy * vy) / (y.length - 1));
  let p: number;
  if (alternative === 'greater') p = studentTSf(t, df);
  else if (alternative === 'less') p = studentTCdf(t, df);
  else p = Math.min(1, 2 * studentTSf(Math.abs(t), df));
  return { t, df, pValue: p, meanDifference };
}
