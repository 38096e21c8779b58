import { assertFiniteArray, assertPositiveInteger } from '../validate.js';
import { mean, quantileSorted } from './descriptive.js';
import { createRng, randomInt } from './rng.js';

export interface BootstrapOptions {
  // Number of resamples with replacement (default 1000, as in BooookScore).
  resamples?: number;
  seed?: number | string;
  // Central interval mass for the percentile CI (default 0.95).
  confidence?: number;
}

export interface BootstrapResult {
  // The statistic on the original sample (not the mean of the resamples).
  estimate: number;
  // Population std (ddof = 0, like numpy's np.std) of the resampled statistics.
  std: number;
  // Percentile interval, numpy "linear" quantiles of the resampled statistics.
  ci: [number, number];
  resamples: number;
  // Resamples whose statistic was NaN (e.g. a correlation of a constant resample); left out.
  undefinedResamples: number;
}

export interface BootstrapMeanResult extends BootstrapResult {
  mean: number;
}

export function bootstrapStatistic<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions = {},
): BootstrapResult {
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 0.95;
  assertPositiveInteger(resamples, 'resamples');
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (items.length === 0) throw new RangeError('cannot bootstrap an empty sample');
  const rng = createRng(options.seed ?? 1);
  const n = items.length;
  const stats: number[] = [];
  const sample = new Array<T>(n);
  let undefinedResamples = 0;
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = items[randomInt(rng, n)]!;
    const s = statistic(sample);
    if (Number.isNaN(s)) undefinedResamples++;
    else stats.push(s);
  }
  stats.sort((a, b) => a - b);
  const m = mean(stats);
  let ss = 0;
  for (const s of stats) ss += (s - m) * (s - m);
  const alpha = (1 - confidence) / 2;
  const ci: [number, number] =
    stats.length > 0
      ? [quantileSorted(stats, alpha), quantileSorted(stats, 1 - alpha)]
      : [Number.NaN, Number.NaN];
  // Identical resamples (one document) have no spread; summing them would leave rounding noise.
  const constant = stats.length > 0 && stats[0] === stats[stats.length - 1];
  return {
    estimate: statistic(items),
    std: stats.length > 0 ? (constant ? 0 : Math.sqrt(ss / stats.length)) : Number.NaN,
    ci,
    resamples,
    undefinedResamples,
  };
}

// Bootstrap of the mean: the BooookScore stability figure (std of 1000 resampled means).
export function bootstrapMean(
  values: readonly number[],
  options: BootstrapOptions = {},
): BootstrapMeanResult {
  assertFiniteArray(values, 'values');
  const result = bootstrapStatistic(values, mean, options);
  return { ...result, mean: result.estimate };
}
