import { describe, expect, it } from '@jest/globals';
import {
  formatBatches,
  formatCalls,
  formatCountTick,
  formatTick,
  formatTokens,
  formatUsd,
  formatUsdTick,
} from './format';

describe("a run's usage on the page", () => {
  const plain = {
    calls: 12,
    cacheHits: 3,
    repeated: 0,
    tokensIn: 9000,
    tokensOut: 1200,
    tokensCached: 0,
    tokensReasoning: 0,
  };

  it('says the cached and reasoning shares only where a model reported them', () => {
    expect(formatTokens(plain)).toBe('9000 in, 1200 out');
    expect(formatTokens({ ...plain, tokensCached: 4096, tokensReasoning: 800 })).toBe(
      '9000 in (4096 cached), 1200 out (800 reasoning)',
    );
    expect(formatTokens({ ...plain, tokensReasoning: 800 })).toBe('9000 in, 1200 out (800 reasoning)');
  });

  it('counts the calls the cache answered and those repeated after faults', () => {
    expect(formatCalls(plain)).toBe('12 (3 from cache)');
    expect(formatCalls({ ...plain, repeated: 2 })).toBe('12 (3 from cache, 2 repeated after faults)');
  });

  it('says what went through provider batches and what it saved', () => {
    const batch = { calls: 840, costUsd: 0.0335, savedUsd: 0.0335, resent: 0 };
    expect(formatBatches(batch)).toBe(
      `840 calls, ${formatUsd(0.0335)} (${formatUsd(0.0335)} less than online)`,
    );
    expect(formatBatches({ ...batch, resent: 15 })).toMatch(/less than online; 15 sent again\)$/);
  });
});

describe('chart tick labels', () => {
  const eNotation = /e[+-]\d/;

  it('reads scores in plain digits, never in e-notation', () => {
    const ticks = [0, 10, 20, 100, 1000, 0.5, 0.25, 2.5, 0.005, 0.0125, 0.1 + 0.2, 1e-7, 12000];
    expect(ticks.map(formatTick)).toEqual([
      '0',
      '10',
      '20',
      '100',
      '1,000',
      '0.5',
      '0.25',
      '2.5',
      '0.005',
      '0.0125',
      '0.3',
      '0.0000001',
      '12,000',
    ]);
    expect(ticks.map(formatTick).filter((t) => eNotation.test(t))).toEqual([]);
  });

  it('puts a dollar sign before costs', () => {
    expect([0, 0.005, 0.01, 0.0675, 1.5, 1200].map(formatUsdTick)).toEqual([
      '$0',
      '$0.005',
      '$0.01',
      '$0.0675',
      '$1.5',
      '$1,200',
    ]);
  });

  it('labels only whole counts', () => {
    expect([0, 0.5, 1, 1.5, 2, 20, 100].map(formatCountTick)).toEqual(['0', '', '1', '', '2', '20', '100']);
  });
});
