import { assertFiniteArray, assertSameLength, isConstant } from '../validate.js';
import { averageRanks } from './ranks.js';
import { normalSf, studentTTwoSidedP } from './special-functions.js';

export type CorrelationMethod = 'pearson' | 'spearman' | 'kendall';

// All coefficients return NaN when undefined: fewer than 2 pairs, or a constant vector
// (zero variance, or all pairs tied for Kendall). Callers decide whether to skip such groups.

function checkPair(x: readonly number[], y: readonly number[]): void {
  assertSameLength(x, y, 'x', 'y');
  assertFiniteArray(x, 'x');
  assertFiniteArray(y, 'y');
}

function pearsonUnchecked(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const r = sxy / Math.sqrt(sxx * syy);
  // Rounding can push |r| a hair above 1.
  return Math.max(-1, Math.min(1, r));
}

export function pearson(x: readonly number[], y: readonly number[]): number {
  checkPair(x, y);
  return pearsonUnchecked(x, y);
}

// Spearman's rho = Pearson on average ranks (ties share the mean rank).
export function spearman(x: readonly number[], y: readonly number[]): number {
  checkPair(x, y);
  if (x.length < 2 || isConstant(x) || isConstant(y)) return Number.NaN;
  return pearsonUnchecked(averageRanks(x), averageRanks(y));
}

interface PairCounts {
  n: number;
  concordant: number;
  discordant: number;
  tiedXOnly: number;
  tiedYOnly: number;
  tiedBoth: number;
}

// O(n^2) pair classification; fine for the group sizes meta-evaluation uses.
function countPairs(x: readonly number[], y: readonly number[]): PairCounts {
  const counts: PairCounts = {
    n: x.length,
    concordant: 0,
    discordant: 0,
    tiedXOnly: 0,
    tiedYOnly: 0,
    tiedBoth: 0,
  };
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) counts.tiedBoth++;
      else if (dx === 0) counts.tiedXOnly++;
      else if (dy === 0) counts.tiedYOnly++;
      else if (dx === dy) counts.concordant++;
      else counts.discordant++;
    }
  }
  return counts;
}

function tauB(c: PairCounts): number {
  const untiedX = c.concordant + c.discordant + c.tiedYOnly;
  const untiedY = c.concordant + c.discordant + c.tiedXOnly;
  if (untiedX === 0 || untiedY === 0) return Number.NaN;
  return (c.concordant - c.discordant) / Math.sqrt(untiedX * untiedY);
}

// Kendall's tau-b: (C - D) / sqrt((pairs untied in x) * (pairs untied in y)).
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  checkPair(x, y);
  if (x.length < 2) return Number.NaN;
  return tauB(countPairs(x, y));
}

export function correlation(x: readonly number[], y: readonly number[], method: CorrelationMethod): number {
  switch (method) {
    case 'pearson':
      return pearson(x, y);
    case 'spearman':
      return spearman(x, y);
    case 'kendall':
      return kendallTauB(x, y);
    default:
      throw new RangeError(
        `unknown correlation method "${String(method)}"; use pearson, spearman or kendall`,
      );
  }
}

export interface CorrelationTest {
  coefficient: number;
  pValue: number;
  n: number;
  // How the two-sided p-value was obtained.
  pMethod: 't-distribution' | 'exact' | 'asymptotic' | 'undefined';
}

// Two-sided p-value of a Pearson/Spearman coefficient via t = r sqrt((n-2)/(1-r^2)), df = n-2
// (what scipy's pearsonr and spearmanr report).
function tTestOfR(r: number, n: number): number {
  if (Math.abs(r) === 1) return 0;
  const t = r * Math.sqrt((n - 2) / ((1 - r) * (1 + r)));
  return studentTTwoSidedP(t, n - 2);
}

export function pearsonTest(x: readonly number[], y: readonly number[]): CorrelationTest {
  const r = pearson(x, y);
  if (Number.isNaN(r) || x.length < 3)
    return { coefficient: r, pValue: Number.NaN, n: x.length, pMethod: 'undefined' };
  return { coefficient: r, pValue: tTestOfR(r, x.length), n: x.length, pMethod: 't-distribution' };
}

export function spearmanTest(x: readonly number[], y: readonly number[]): CorrelationTest {
  const r = spearman(x, y);
  if (Number.isNaN(r) || x.length < 3)
    return { coefficient: r, pValue: Number.NaN, n: x.length, pMethod: 'undefined' };
  return { coefficient: r, pValue: tTestOfR(r, x.length), n: x.length, pMethod: 't-distribution' };
}

// P(D <= c) for the number of discordant pairs D of a random permutation of n (no ties).
function kendallExactLowerTail(n: number, c: number): number {
  let dist = [1];
  for (let j = 2; j <= n; j++) {
    // Inserting item j adds 0..j-1 inversions, each equally likely.
    const next = new Array<number>(Math.min(c, dist.length - 1 + j - 1) + 1).fill(0);
    for (let k = 0; k < next.length; k++) {
      let s = 0;
      for (let i = 0; i <= Math.min(k, j - 1); i++) s += dist[k - i] ?? 0;
      next[k] = s / j;
    }
    dist = next;
  }
  let p = 0;
  for (let k = 0; k <= c && k < dist.length; k++) p += dist[k]!;
  return p;
}

function tieStats(values: readonly number[]): { t1: number; t2: number; t3: number } {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let t1 = 0;
  let t2 = 0;
  let t3 = 0;
  for (const t of counts.values()) {
    t1 += t * (t - 1);
    t2 += t * (t - 1) * (t - 2);
    t3 += t * (t - 1) * (2 * t + 5);
  }
  return { t1, t2, t3 };
}

// Tau-b with a two-sided p-value chosen like scipy.stats.kendalltau(method='auto'): exact when
// there are no ties and n <= 33 (or at most one discordant/concordant pair), otherwise the
// tie-corrected normal approximation.
export function kendallTest(x: readonly number[], y: readonly number[]): CorrelationTest {
  checkPair(x, y);
  const n = x.length;
  if (n < 2) return { coefficient: Number.NaN, pValue: Number.NaN, n, pMethod: 'undefined' };
  const c = countPairs(x, y);
  const tau = tauB(c);
  if (Number.isNaN(tau)) return { coefficient: tau, pValue: Number.NaN, n, pMethod: 'undefined' };
  const total = (n * (n - 1)) / 2;
  const ties = c.tiedXOnly + c.tiedYOnly + c.tiedBoth;
  if (ties === 0 && (n <= 33 || Math.min(c.discordant, total - c.discordant) <= 1)) {
    const k = Math.min(c.discordant, total - c.discordant);
    const p = n <= 2 || 4 * k === n * (n - 1) ? 1 : Math.min(1, 2 * kendallExactLowerTail(n, k));
    return { coefficient: tau, pValue: p, n, pMethod: 'exact' };
  }
  const tx = tieStats(x);
  const ty = tieStats(y);
  const m = n * (n - 1);
  const variance =
    (m * (2 * n + 5) - tx.t3 - ty.t3) / 18 +
    (tx.t1 / 2) * (ty.t1 / 2) * (2 / m) +
    (tx.t2 * ty.t2) / (9 * m * (n - 2));
  const z = (c.concordant - c.discordant) / Math.sqrt(variance);
  return { coefficient: tau, pValue: Math.min(1, 2 * normalSf(Math.abs(z))), n, pMethod: 'asymptotic' };
}
