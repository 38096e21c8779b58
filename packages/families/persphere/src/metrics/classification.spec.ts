import { describe, expect, it } from '@jest/globals';
import { macroF1 } from './classification.js';

describe('macroF1', () => {
  it('averages per-label F1', () => {
    // Label 1: tp 2, fp 1, fn 0 -> 0.8; label 2: tp 1, fp 0, fn 1 -> 2/3.
    expect(macroF1([1, 1, 2, 2], [1, 1, 1, 2])).toBeCloseTo((0.8 + 2 / 3) / 2, 14);
    expect(() => macroF1([1], [])).toThrow(/paired/);
  });
});
