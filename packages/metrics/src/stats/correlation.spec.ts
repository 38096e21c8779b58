import { describe, expect, it } from '@jest/globals';
import {
  correlation,
  kendallTauB,
  kendallTest,
  pearson,
  pearsonTest,
  spearman,
  spearmanTest,
} from './correlation.js';
import { averageRanks, tieGroupSizes } from './ranks.js';

describe('ranks', () => {
  it('averages tied ranks', () => {
    expect(averageRanks([10, 20, 20, 5, 20])).toEqual([2, 4, 4, 1, 4]);
    expect(tieGroupSizes([1, 2, 2, 3, 3, 3])).toEqual([2, 3]);
  });
});

describe('correlations', () => {
  it('hand-worked Pearson and Spearman', () => {
    // x = 1..4, y = 2x: r = 1; reversed: -1.
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 14);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 14);
    // x = [1,2,3], y = [1,3,2]: sxy = 1, sxx = syy = 2 -> r = 0.5.
    expect(pearson([1, 2, 3], [1, 3, 2])).toBeCloseTo(0.5, 14);
    // Spearman ignores monotone transforms.
    expect(spearman([1, 2, 3, 4, 5], [1, 8, 27, 64, 125])).toBeCloseTo(1, 14);
  });

  it('scipy documentation examples', () => {
    // scipy.stats.spearmanr([1,2,3,4,5], [5,6,7,8,7]) -> 0.8207826816681233, p 0.0885870053135438
    const s = spearmanTest([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]);
    expect(s.coefficient).toBeCloseTo(0.8207826816681233, 12);
    expect(s.pValue).toBeCloseTo(0.08858700531354384, 10);
    // scipy.stats.kendalltau([12,2,1,12,2], [1,4,7,1,0]) -> -0.4714045207910316, p 0.2827454599327748
    const k = kendallTest([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]);
    expect(k.coefficient).toBeCloseTo(-0.4714045207910316, 12);
    expect(k.pValue).toBeCloseTo(0.28274545993277467, 10);
    expect(k.pMethod).toBe('asymptotic');
  });

  it('matches scipy on a small sample without ties (exact Kendall p)', () => {
    const a = [3.1, 2.4, 5.6, 4.4, 6.0, 5.1, 3.9];
    const b = [2.0, 2.2, 4.5, 4.6, 7.1, 4.8, 4.0];
    const p = pearsonTest(a, b);
    expect(p.coefficient).toBeCloseTo(0.9061255123917412, 12);
    expect(p.pValue).toBeCloseTo(0.004927481971130249, 10);
    expect(spearmanTest(a, b).pValue).toBeCloseTo(0.013697326615325618, 10);
    const k = kendallTest(a, b);
    // 18 concordant, 3 discordant pairs: tau = 15/21.
    expect(k.coefficient).toBeCloseTo(15 / 21, 14);
    expect(k.pMethod).toBe('exact');
    expect(k.pValue).toBeCloseTo(0.03015873015873016, 12);
  });

  it('matches scipy with many ties (n = 35)', () => {
    const c = [
      1, 2, 2, 3, 4, 4, 4, 5, 6, 7, 8, 9, 10, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
      26, 27, 28, 29, 30, 31,
    ];
    const d = [
      7, 7, 6, 5, 6, 4, 4, 5, 7, 13, 13, 16, 14, 14, 18, 17, 18, 18, 19, 23, 19, 24, 24, 20, 24, 28, 27, 24,
      31, 31, 33, 29, 29, 36, 31,
    ];
    const k = kendallTest(c, d);
    expect(k.coefficient).toBeCloseTo(0.8564973546484735, 12);
    expect(k.pValue / 1.2902247368507636e-12).toBeCloseTo(1, 6);
    const s = spearmanTest(c, d);
    expect(s.coefficient).toBeCloseTo(0.9643396213261657, 12);
    expect(s.pValue / 1.2687473859281178e-20).toBeCloseTo(1, 6);
    expect(pearson(c, d)).toBeCloseTo(0.9674097781202325, 12);
  });

  it('Kendall tau-b tie correction by hand', () => {
    // x = [1,1,2,3], y = [1,2,2,3]: pairs (6): C = 4, D = 0, tied only in x: 1, tied only in y: 1.
    // tau-b = 4 / sqrt((4 + 1) * (4 + 1)) = 0.8 (tau-a would be 4/6).
    expect(kendallTauB([1, 1, 2, 3], [1, 2, 2, 3])).toBeCloseTo(0.8, 14);
  });

  it('is NaN (undefined) for constant vectors and fewer than 2 pairs', () => {
    for (const method of ['pearson', 'spearman', 'kendall'] as const) {
      expect(correlation([1, 1, 1], [1, 2, 3], method)).toBeNaN();
      expect(correlation([1, 2, 3], [0.1, 0.1, 0.1], method)).toBeNaN();
      expect(correlation([1], [2], method)).toBeNaN();
    }
    expect(kendallTest([2, 2], [1, 3]).pMethod).toBe('undefined');
  });

  it('rejects unpaired or non-finite input', () => {
    expect(() => pearson([1, 2], [1, 2, 3])).toThrow(/paired/);
    expect(() => spearman([1, Number.NaN], [1, 2])).toThrow(/x\[1\]/);
  });
});
