import { describe, expect, it } from '@jest/globals';
import { describeUsage } from './usage-text.js';

describe('describeUsage', () => {
  const plain = {
    calls: 12,
    cacheHits: 3,
    repeated: 0,
    tokensIn: 9000,
    tokensOut: 1200,
    tokensCached: 0,
    tokensReasoning: 0,
    costUsd: 0.0123,
  };

  it('reads as before for a plain model', () => {
    expect(describeUsage(plain)).toBe('12 model calls (3 from cache), 9000 tokens in, 1200 out, $0.0123');
  });

  it('says the cached prompt tokens beside the input and the reasoning beside the output', () => {
    expect(describeUsage({ ...plain, repeated: 2, tokensCached: 4096, tokensReasoning: 800 })).toBe(
      '12 model calls (3 from cache, 2 repeated after faults), 9000 tokens in (4096 cached), 1200 out (800 reasoning), $0.0123',
    );
    expect(describeUsage({ ...plain, tokensReasoning: 800 })).toBe(
      '12 model calls (3 from cache), 9000 tokens in, 1200 out (800 reasoning), $0.0123',
    );
  });
});
