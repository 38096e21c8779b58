import { describe, expect, it } from '@jest/globals';
import { toNumber } from './numbers.js';

describe('toNumber', () => {
  it('normalizes what pg (strings) and PGlite (numbers) return for aggregates', () => {
    expect(toNumber('1000')).toBe(1000);
    expect(toNumber(1000)).toBe(1000);
    expect(toNumber(10n)).toBe(10);
    expect(toNumber('0.0015000000')).toBe(0.0015);
    expect(toNumber(' -2.5e3 ')).toBe(-2500);
  });

  it('reads SQL NULL (SUM over no rows) as 0', () => {
    expect(toNumber(null)).toBe(0);
    expect(toNumber(undefined)).toBe(0);
  });

  it('refuses values that are not numbers or would lose digits', () => {
    expect(() => toNumber('abc')).toThrow(/"abc" is not a number/);
    expect(() => toNumber('')).toThrow(/not a number/);
    expect(() => toNumber(Number.NaN)).toThrow(/NaN/);
    expect(() => toNumber('9007199254740993')).toThrow(RangeError);
    expect(() => toNumber(2n ** 60n)).toThrow(RangeError);
    expect(toNumber('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });
});
