import { describe, expect, it } from '@jest/globals';
import { costUnits, formatCost, parseCost, parsePrice } from './cost.js';

describe('exact cost arithmetic', () => {
  it('parses prices with up to 4 decimals and rejects the rest', () => {
    expect(parsePrice('2.5')).toBe(25000n);
    expect(parsePrice(0.15)).toBe(1500n);
    expect(parsePrice('0.0001')).toBe(1n);
    expect(parsePrice('10.50000')).toBe(105000n);
    expect(parsePrice('0.00001')).toBeNull();
    expect(parsePrice(-1)).toBeNull();
    expect(parsePrice('1e-3')).toBeNull();
    expect(parsePrice(1e-7)).toBeNull();
  });

  it('costs tokens * price / 1e6 exactly where floating point would drift', () => {
    const units = costUnits(1234567, 7654321, parsePrice('0.15')!, parsePrice('0.6')!);
    expect(formatCost(units)).toBe('4.7777776500');
    let sum = 0n;
    let float = 0;
    for (let i = 0; i < 1000; i++) {
      sum += costUnits(3, 1, parsePrice('0.1')!, parsePrice('0.2')!);
      float += (3 * 0.1 + 1 * 0.2) / 1e6;
    }
    expect(formatCost(sum)).toBe('0.0005000000');
    expect(float).not.toBe(0.0005);
  });

  it('formats and parses decimals symmetrically', () => {
    expect(formatCost(0n)).toBe('0.0000000000');
    expect(formatCost(1n)).toBe('0.0000000001');
    expect(formatCost(-15n)).toBe('-0.0000000015');
    expect(parseCost('12.5')).toBe(125000000000n);
    expect(parseCost(formatCost(987654321012n))).toBe(987654321012n);
    expect(() => parseCost('0.00000000001')).toThrow(/more than 10 decimals/);
  });
});
