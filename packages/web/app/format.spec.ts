import { describe, expect, it } from '@jest/globals';
import { formatCalls, formatTokens } from './format';

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
});
