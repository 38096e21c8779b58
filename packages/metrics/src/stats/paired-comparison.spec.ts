import { describe, expect, it } from '@jest/globals';
import { holmAdjust, pairedBootstrap, significanceRanks } from './paired-comparison.js';
import { createRng, randomInt } from './rng.js';

// The test drawn item by item from the seed, as pairedBootstrap is specified: its p-value.
function drawnP(a: number[], b: number[], resamples: number, seed: number): number {
  const rng = createRng(seed);
  let below = 0;
  let above = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < a.length; i++) {
      const k = randomInt(rng, a.length);
      sum += a[k]! - b[k]!;
    }
    if (sum / a.length <= 0) below++;
    if (sum / a.length >= 0) above++;
  }
  return Math.min(1, (2 * (Math.min(below, above) + 1)) / (resamples + 1));
}

describe('pairedBootstrap', () => {
  it('finds no difference between identical systems (p = 1)', () => {
    const a = [0.2, 0.5, 0.9, 0.4];
    expect(pairedBootstrap(a, a, { resamples: 200, seed: 3 })).toEqual({
      meanDiff: 0,
      p: 1,
      items: 4,
      resamples: 200,
    });
  });

  it('gives the smallest p when every item favours one system', () => {
    // Every resampled mean difference is positive: the tail is empty, p = 2 / (B + 1).
    const r = pairedBootstrap([3, 4, 5, 6], [1, 1, 1, 1], { resamples: 999, seed: 1 });
    expect(r.meanDiff).toBe(3.5);
    expect(r.p).toBeCloseTo(2 / 1000, 12);
  });

  it('is not significant when one item of many favours the other system', () => {
    const a = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
    const b = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    const r = pairedBootstrap(a, b, { resamples: 2000, seed: 5 });
    expect(r.meanDiff).toBeCloseTo(-0.1, 12);
    // A resample leaves out item 10 with probability 0.9^10 = 0.349: then the difference is 0.
    expect(r.p).toBeGreaterThan(0.6);
  });

  it('draws as the seed says, with the draws shared between pairs or made per call', () => {
    const scores = (n: number, k: number) => Array.from({ length: n }, (_, i) => ((i * k) % 7) / 7);
    // 40 x 500 draws are shared (every pair of a board reuses them); 1,500 x 800 are over the cap.
    for (const [n, resamples] of [
      [40, 500],
      [1500, 800],
    ] as const) {
      const [a, b, c] = [scores(n, 3), scores(n, 5), scores(n, 2)];
      expect(pairedBootstrap(a, b, { resamples, seed: 11 }).p).toBe(drawnP(a, b, resamples, 11));
      expect(pairedBootstrap(a, c, { resamples, seed: 11 }).p).toBe(drawnP(a, c, resamples, 11));
    }
  });

  it('refuses samples of different lengths and empty ones', () => {
    expect(() => pairedBootstrap([1], [1, 2])).toThrow('paired samples differ in length: 1 and 2');
    expect(() => pairedBootstrap([], [])).toThrow('cannot compare empty samples');
  });
});

describe('holmAdjust', () => {
  it('multiplies the k-th smallest by m - k + 1, monotone, capped at 1, in input order', () => {
    // Sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06 (monotone), 0.5.
    expect(holmAdjust([0.03, 0.5, 0.01, 0.02]).map((p) => Number(p.toFixed(10)))).toEqual([
      0.06, 0.5, 0.04, 0.06,
    ]);
    expect(holmAdjust([0.4, 0.6])).toEqual([0.8, 0.8]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe('significanceRanks', () => {
  it('ranks a system 1 + the systems significantly better than it', () => {
    // 0 beats 2 only: 0 and 1 share rank 1, 2 is second.
    expect(significanceRanks(3, (i, j) => i === 0 && j === 2)).toEqual([1, 1, 2]);
    expect(significanceRanks(3, (i, j) => i < j)).toEqual([1, 2, 3]);
  });
});
