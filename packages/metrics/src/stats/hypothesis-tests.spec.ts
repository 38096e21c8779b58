import { describe, expect, it } from '@jest/globals';
import { mannWhitneyU, welchTTest } from './hypothesis-tests.js';

describe('Mann-Whitney U', () => {
  it('exact p for small samples without ties (worked by hand)', () => {
    // Combined order: 11y 12y 16x 17y 19x 20y 22x 24x 29x -> ranks of x: 3,5,7,8,9 -> R1 = 32,
    // U1 = 32 - 15 = 17, U2 = 3. Arrangements with U2 <= 3: 1 + 1 + 2 + 3 = 7 of C(9,4) = 126,
    // so p = 2 * 7/126 = 1/9 (scipy: 0.1111111111111111).
    const r = mannWhitneyU([19, 22, 16, 29, 24], [20, 11, 17, 12]);
    expect(r.u1).toBe(17);
    expect(r.u2).toBe(3);
    expect(r.method).toBe('exact');
    expect(r.pValue).toBeCloseTo(1 / 9, 14);
  });

  it('exact p for unequal sizes, one-sided', () => {
    const x = [1.5, 20.5, 30.5];
    const y = Array.from({ length: 12 }, (_, i) => i + 1);
    const two = mannWhitneyU(x, y);
    expect(two.u1).toBe(25);
    expect(two.pValue).toBeCloseTo(0.36483516483516487, 12);
    expect(mannWhitneyU(x, y, { alternative: 'less' }).pValue).toBeCloseTo(0.8527472527472527, 12);
  });

  it('tie-corrected normal approximation with continuity correction', () => {
    const x = [1, 2, 2, 3, 4, 5, 5, 5, 6, 7];
    const y = [3, 4, 4, 6, 8, 8, 9, 9, 10, 11, 12];
    const r = mannWhitneyU(x, y);
    expect(r.method).toBe('asymptotic');
    expect(r.u1).toBe(19);
    // By hand: U = max(19, 91) = 91, mu = 55, n = 21; tied groups 2,3,6,8,9 (pairs) and 4,5
    // (triples) give a tie term 5 * 6 + 2 * 24 = 78; sd = sqrt(110/12 * (22 - 78/420)).
    const sd = Math.sqrt((110 / 12) * (22 - 78 / 420));
    expect(r.z).toBeCloseTo(35.5 / sd, 12);
    expect(r.pValue).toBeCloseTo(0.012057629308672886, 12);
    expect(mannWhitneyU(x, y, { alternative: 'greater' }).pValue).toBeCloseTo(0.9950766991641701, 12);
    expect(mannWhitneyU(x, y, { alternative: 'less' }).pValue).toBeCloseTo(0.006028814654336443, 12);
  });

  it('uses the normal approximation for two large samples without ties', () => {
    const x = Array.from({ length: 20 }, (_, i) => i + 1);
    const y = Array.from({ length: 25 }, (_, i) => i + 5.5);
    const r = mannWhitneyU(x, y);
    expect(r.method).toBe('asymptotic');
    expect(r.u1).toBe(120);
    expect(r.pValue).toBeCloseTo(0.00309653729308269, 12);
  });

  it('refuses the exact method with ties and empty samples', () => {
    expect(() => mannWhitneyU([1, 1], [2], { method: 'exact' })).toThrow(/ties/);
    expect(() => mannWhitneyU([], [1])).toThrow(/non-empty/);
  });
});

describe('Welch t-test', () => {
  it('hand-worked statistic and df', () => {
    // x: mean 2.5, var 5/3; y: mean 6, var 10. se^2 = 5/12 + 2 = 29/12.
    const r = welchTTest([1, 2, 3, 4], [2, 4, 6, 8, 10]);
    expect(r.t).toBeCloseTo(-3.5 / Math.sqrt(29 / 12), 13);
    const df = (29 / 12) ** 2 / ((5 / 12) ** 2 / 3 + 2 ** 2 / 4);
    expect(r.df).toBeCloseTo(df, 12);
    expect(r.pValue).toBeCloseTo(0.06913359319239237, 10);
  });

  it('matches scipy.stats.ttest_ind(equal_var=False)', () => {
    const a = [19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0];
    const b = [
      28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3,
      20.4, 23.9, 13.3,
    ];
    const r = welchTTest(a, b);
    expect(r.t).toBeCloseTo(-2.225512039969852, 12);
    expect(r.df).toBeCloseTo(24.524634944257343, 10);
    expect(r.pValue).toBeCloseTo(0.035484530830010394, 10);
    expect(welchTTest(a, b, 'less').pValue).toBeCloseTo(0.035484530830010394 / 2, 10);
  });

  it('is NaN when both samples are constant, and needs 2 values per sample', () => {
    expect(welchTTest([1, 1], [2, 2]).pValue).toBeNaN();
    expect(() => welchTTest([1], [2, 3])).toThrow(/at least 2/);
  });
});
