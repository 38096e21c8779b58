import { describe, expect, it } from '@jest/globals';
import { chatCostUnits, costUnits, formatCost, parseCost, parsePrice } from './cost.js';

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

  it('charges cached prompt tokens at the cached price and reasoning as output', () => {
    // 12,000 prompt tokens of which 8,192 cached, 1,500 completion tokens of which 1,200 reasoning,
    // at $1.25 in, $0.125 cached in, $10 out per 1M tokens: 3,808 x 1.25 + 8,192 x 0.125 + 1,500 x 10
    // = 4,760 + 1,024 + 15,000 millionths of a dollar = $0.020784.
    const prices = {
      priceInUnits: parsePrice('1.25')!,
      priceCachedInUnits: parsePrice('0.125')!,
      priceOutUnits: parsePrice('10')!,
    };
    const usage = {
      promptTokens: 12_000,
      completionTokens: 1_500,
      cachedTokens: 8_192,
      reasoningTokens: 1_200,
    };
    expect(formatCost(chatCostUnits(usage, prices))).toBe('0.0207840000');
    // Without a cached price the registry uses the input price: $0.015 + $0.015 = $0.03.
    const flat = { ...prices, priceCachedInUnits: prices.priceInUnits };
    expect(formatCost(chatCostUnits(usage, flat))).toBe('0.0300000000');
    // A provider reporting more cached tokens than prompt tokens is not paid back.
    expect(
      formatCost(chatCostUnits({ promptTokens: 10, completionTokens: 0, cachedTokens: 50 }, prices)),
    ).toBe('0.0000012500');
  });
});
