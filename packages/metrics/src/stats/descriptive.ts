import { assertFiniteArray, assertSameLength } from '../validate.js';

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

// ddof = 1 gives the unbiased sample variance (scipy/numpy ddof semantics).
export function variance(values: readonly number[], ddof = 1): number {
  const n = values.length;
  if (n - ddof <= 0) return Number.NaN;
  const m = mean(values);
  let s = 0;
  for (const v of values) s += (v - m) * (v - m);
  return s / (n - ddof);
}

export function standardDeviation(values: readonly number[], ddof = 1): number {
  return Math.sqrt(variance(values, ddof));
}

// Quantile with linear interpolation between order statistics (numpy's default "linear" method).
export function quantile(values: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile q must be in [0, 1], got ${q}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return quantileSorted(sorted, q);
}

export function quantileSorted(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const frac = pos - lo;
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * frac;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

// Root-mean-square difference between paired ratings (used for pairwise rater agreement).
export function rmse(a: readonly number[], b: readonly number[]): number {
  assertSameLength(a, b, 'a', 'b');
  assertFiniteArray(a, 'a');
  assertFiniteArray(b, 'b');
  if (a.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s / a.length);
}
