import { describe, expect, it } from '@jest/globals';
import { bootstrapMean, bootstrapStatistic } from './bootstrap.js';
import { pearson } from './correlation.js';
import { standardDeviation } from './descriptive.js';
import { createRng, mulberry32 } from './rng.js';

describe('seeded RNG', () => {
  it('is reproducible and roughly uniform', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 20000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const m = xs.reduce((s, v) => s + v, 0) / xs.length;
    expect(Math.abs(m - 0.5)).toBeLessThan(0.01);
    expect(createRng('run-1')()).toBe(createRng('run-1')());
    expect(createRng('run-1')()).not.toBe(createRng('run-2')());
  });
});

describe('bootstrap', () => {
  const values = Array.from({ length: 100 }, (_, i) => (i % 10) / 10);

  it('is deterministic for a seed and reports the sample mean', () => {
    const a = bootstrapMean(values, { seed: 7 });
    const b = bootstrapMean(values, { seed: 7 });
    expect(a).toEqual(b);
    expect(a.mean).toBeCloseTo(0.45, 14);
    expect(a.resamples).toBe(1000);
    expect(bootstrapMean(values, { seed: 8 }).std).not.toBe(a.std);
  });

  it('std of resampled means approximates the standard error', () => {
    // Population std of 0.0..0.9 is sqrt(0.0825); SE of a mean of 100 draws is that / 10.
    const se = Math.sqrt(0.0825) / 10;
    const r = bootstrapMean(values, { seed: 3, resamples: 4000 });
    expect(r.std).toBeGreaterThan(se * 0.9);
    expect(r.std).toBeLessThan(se * 1.1);
    expect(r.ci[0]).toBeLessThan(0.45);
    expect(r.ci[1]).toBeGreaterThan(0.45);
    // The 95% percentile interval spans about 2 * 1.96 SE.
    expect((r.ci[1] - r.ci[0]) / (2 * 1.96 * se)).toBeGreaterThan(0.85);
    expect((r.ci[1] - r.ci[0]) / (2 * 1.96 * se)).toBeLessThan(1.15);
  });

  it('a constant sample has zero spread', () => {
    const r = bootstrapMean([0.8, 0.8, 0.8], { seed: 1, resamples: 50 });
    // Exactly 0, not rounding noise (a CSV printed 2.99760216649e-13 for one document).
    expect(r.std).toBe(0);
    expect(bootstrapMean([6 / 7], { seed: 1, resamples: 1000 }).std).toBe(0);
    expect(r.ci[0]).toBeCloseTo(0.8, 14);
    expect(r.ci[1]).toBeCloseTo(0.8, 14);
  });

  it('drops resamples where the statistic is undefined', () => {
    const pairs = [
      [1, 2],
      [2, 1],
      [3, 5],
    ];
    const r = bootstrapStatistic(
      pairs,
      (s) =>
        pearson(
          s.map((p) => p[0]!),
          s.map((p) => p[1]!),
        ),
      { seed: 5, resamples: 200 },
    );
    // Resamples that draw the same pair three times give a constant vector.
    expect(r.undefinedResamples).toBeGreaterThan(0);
    expect(Number.isFinite(r.std)).toBe(true);
    expect(standardDeviation([1, 2, 3])).toBeCloseTo(1, 14);
  });

  it('rejects bad options', () => {
    expect(() => bootstrapMean([], {})).toThrow(/empty/);
    expect(() => bootstrapMean([1], { resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrapMean([1], { confidence: 1.5 })).toThrow(/confidence/);
  });
});
