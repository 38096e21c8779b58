import { describe, expect, it } from '@jest/globals';
import { formatEta, StageEta } from './stage-eta.js';

describe('formatEta', () => {
  it.each([
    [null, 'ETA --'],
    [Number.POSITIVE_INFINITY, 'ETA --'],
    [Number.NaN, 'ETA --'],
    [0, 'ETA 0s'],
    [400, 'ETA 1s'],
    [45_000, 'ETA 45s'],
    [59_001, 'ETA 1m 0s'],
    [80_000, 'ETA 1m 20s'],
    [3_599_000, 'ETA 59m 59s'],
    [7_500_000, 'ETA 2h 05m'],
  ])('%p ms -> %s', (ms, text) => {
    expect(formatEta(ms)).toBe(text);
  });
});

describe('StageEta', () => {
  it('is unknown until something finishes, then extrapolates the observed rate', () => {
    const eta = new StageEta(30_000);
    expect(eta.update(0, 0, 100)).toBeNull();
    expect(eta.update(1_000, 0, 100)).toBeNull();
    // 10 finished in 2 s: 5 per second, 90 left.
    expect(eta.update(2_000, 10, 100)).toBe(18_000);
    expect(eta.update(2_000, 100, 100)).toBe(0);
  });

  it('follows the rate of the last window, not the rate since the start', () => {
    const eta = new StageEta(10_000);
    // 10 per second for 10 s, then 1 per second.
    for (let s = 0; s <= 10; s++) eta.update(s * 1000, 10 * s, 1000);
    let left: number | null = null;
    for (let s = 11; s <= 30; s++) left = eta.update(s * 1000, 100 + (s - 10), 1000);
    // At 30 s: 120 finished, 880 left; the last 10 s saw 10 finish.
    expect(left).toBe(880_000);
  });

  it('counts a total that grows as the planner adds tasks', () => {
    const eta = new StageEta();
    eta.update(0, 0, 10);
    expect(eta.update(5_000, 10, 30)).toBe(10_000);
  });
});
