import { describe, expect, it } from '@jest/globals';
import { krippendorffAlpha, krippendorffAlphaDetailed } from './krippendorff.js';

const _ = null;

describe("Krippendorff's alpha", () => {
  // "Computing Krippendorff's Alpha-Reliability" (2011), section C: 4 observers, 12 units,
  // missing data; unit 12 has a single value and is not pairable.
  const reliability = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];

  it('reproduces the published values for each level of measurement', () => {
    expect(krippendorffAlpha(reliability, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(reliability, 'ordinal')).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(reliability, 'interval')).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(reliability, 'ratio')).toBeCloseTo(0.797, 3);
    const detail = krippendorffAlphaDetailed(reliability, 'nominal');
    expect(detail.pairableValues).toBe(40);
    expect(detail.unitsUsed).toBe(11);
  });

  it('two coders, binary data (section A): alpha = 0.095', () => {
    const data = [
      [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
      [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    ];
    // o01 = o10 = 4, n0 = 14, n1 = 6, n = 20: alpha = 1 - 19 * 8 / (2 * 14 * 6) = 16/168.
    expect(krippendorffAlpha(data, 'nominal')).toBeCloseTo(16 / 168, 12);
  });

  it('perfect agreement is 1; no variation at all is undefined', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
        'interval',
      ),
    ).toBeCloseTo(1, 14);
    expect(
      krippendorffAlpha(
        [
          [2, 2],
          [2, 2],
        ],
        'interval',
      ),
    ).toBeNaN();
    expect(
      krippendorffAlpha(
        [
          [1, _],
          [_, 2],
        ],
        'nominal',
      ),
    ).toBeNaN();
  });

  it('nominal data may be strings; numeric levels require numbers', () => {
    const text = [
      ['a', 'b', 'a', 'c'],
      ['a', 'b', 'b', 'c'],
    ];
    const codes = [
      [0, 1, 0, 2],
      [0, 1, 1, 2],
    ];
    expect(krippendorffAlpha(text, 'nominal')).toBeCloseTo(krippendorffAlpha(codes, 'nominal'), 14);
    expect(() => krippendorffAlpha(text, 'interval')).toThrow(/coder 0, unit 0/);
  });
});
