import { describe, expect, it } from '@jest/globals';
import { costText, describeUsage } from './usage-text.js';

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
    reservedUsd: 0,
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

  it('gives the spent cost and, apart, what calls not settled yet reserved', () => {
    expect(describeUsage({ ...plain, costUsd: 0.0675, reservedUsd: 0.25 })).toBe(
      '12 model calls (3 from cache), 9000 tokens in, 1200 out, $0.0675 spent (+$0.2500 reserved in flight)',
    );
    expect(costText({ costUsd: 0.0675, reservedUsd: 0.25 }, false)).toBe(
      '$0.0675 spent (+$0.2500 reserved by calls never settled)',
    );
  });

  it('says how many calls went through provider batches, what they cost and saved', () => {
    const batch = { calls: 420, costUsd: 0.0335, savedUsd: 0.0335, resent: 0 };
    expect(describeUsage({ ...plain, batch })).toBe(
      '12 model calls (3 from cache), 9000 tokens in, 1200 out, $0.0123; 420 through provider batches ($0.0335, $0.0335 less than online)',
    );
    expect(describeUsage({ ...plain, batch: { ...batch, resent: 42 } })).toBe(
      '12 model calls (3 from cache), 9000 tokens in, 1200 out, $0.0123; 420 through provider batches ($0.0335, $0.0335 less than online; 42 sent again after their batch expired or failed them)',
    );
    expect(describeUsage({ ...plain, batch: { calls: 0, costUsd: 0, savedUsd: 0, resent: 0 } })).toBe(
      '12 model calls (3 from cache), 9000 tokens in, 1200 out, $0.0123',
    );
  });
});
