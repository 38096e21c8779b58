import { describe, expect, it } from '@jest/globals';
import { rmse } from './descriptive.js';
import { summaryLevelAgreement, summaryLevelCorrelation, systemLevelCorrelation } from './meta-evaluation.js';

describe('meta-evaluation', () => {
  it('averages per-group correlations and skips constant groups', () => {
    const metric = [
      [0.2, 0.5, 0.1, 0.9],
      [3, 1, 2, 2],
      [1, 1, 1, 1],
      [0.3, 0.1, 0.2, 0.4],
    ];
    const human = [
      [1, 3, 2, 4],
      [2, 2, 1, 3],
      [1, 2, 3, 4],
      [4, 4, 4, 4],
    ];
    // scipy: spearman 0.8 and 0.0, kendall 2/3 and 0.0 for the first two groups.
    const s = summaryLevelCorrelation(metric, human, 'spearman');
    expect(s.groupsUsed).toBe(2);
    expect(s.groupsSkipped).toEqual([2, 3]);
    expect(s.value).toBeCloseTo(0.4, 14);
    expect(summaryLevelCorrelation(metric, human, 'kendall').value).toBeCloseTo(1 / 3, 14);
  });

  it('is NaN with zero usable groups and rejects unpaired input', () => {
    const r = summaryLevelCorrelation([[1, 1]], [[1, 2]], 'pearson');
    expect(r.value).toBeNaN();
    expect(r.groupsUsed).toBe(0);
    expect(() => summaryLevelCorrelation([[1, 2]], [], 'pearson')).toThrow(/paired/);
    expect(() => summaryLevelCorrelation([[1, 2]], [[1]], 'pearson')).toThrow(/group 0/);
  });

  it('correlates per-system means', () => {
    const r = systemLevelCorrelation(
      [
        [0.1, 0.2, 0.3],
        [0.4, 0.5],
        [0.9, 0.7, 0.8, 0.6],
      ],
      [
        [2, 3, 1],
        [4, 4],
        [3, 5, 4, 4],
      ],
      'pearson',
    );
    expect(r.metricMeans.map((v) => Number(v.toFixed(10)))).toEqual([0.2, 0.45, 0.75]);
    expect(r.humanMeans).toEqual([2, 4, 4]);
    expect(r.value).toBeCloseTo(0.8386278693775345, 12);
    expect(() => systemLevelCorrelation([[]], [[1]], 'pearson')).toThrow(/metricBySystem\[0\] is empty/);
  });

  it('rmse between raters', () => {
    expect(rmse([1, 2, 3], [1, 2, 5])).toBeCloseTo(Math.sqrt(4 / 3), 14);
  });

  it('summary-level agreement: three coefficients averaged over the usable groups', () => {
    // Group 1 agrees (+1), group 2 disagrees (-1), group 3 has constant human ratings (skipped).
    const metric = [
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ];
    const human = [
      [2, 4, 9],
      [9, 4, 2],
      [3, 3, 3],
    ];
    const a = summaryLevelAgreement(metric, human);
    expect(a).toMatchObject({ spearman: 0, kendall: 0, products: 2, skipped: 1, summaries: 9 });
    expect(a.pearson).toBeCloseTo(0, 14);
    expect(summaryLevelAgreement([[1, 1]], [[2, 3]])).toEqual({
      spearman: null,
      kendall: null,
      pearson: null,
      products: 0,
      skipped: 1,
      summaries: 2,
    });
  });
});
