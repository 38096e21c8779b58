import { describe, expect, it } from '@jest/globals';
import { greedyMatchScore } from './greedy-match.js';

describe('greedy token matching (BERTScore-style)', () => {
  it('matches each token to its best counterpart by cosine', () => {
    // Candidate tokens [1,0] and [0,1]; reference token [1,1]/√2.
    // Precision: each candidate token's best cosine is 1/√2 -> 0.7071; recall: [1,1] best 0.7071.
    const s = greedyMatchScore(
      [
        [1, 0],
        [0, 1],
      ],
      [[1, 1]],
    );
    expect(s.precision).toBeCloseTo(Math.SQRT1_2, 12);
    expect(s.recall).toBeCloseTo(Math.SQRT1_2, 12);
    expect(s.f1).toBeCloseTo(Math.SQRT1_2, 12);
    // A candidate that repeats one reference token: precision 1, recall (1 + 0) / 2.
    const r = greedyMatchScore(
      [[2, 0]],
      [
        [1, 0],
        [0, 3],
      ],
    );
    expect([r.precision, r.recall, r.f1]).toEqual([1, 0.5, 2 / 3]);
    expect(greedyMatchScore([], [[1, 0]]).f1).toBe(0);
    expect(() => greedyMatchScore([[1, 0]], [[1, 0, 0]])).toThrow('token vectors of 2 and 3 dimensions');
  });
});
