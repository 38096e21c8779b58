import { describe, expect, it } from '@jest/globals';
import { coverAtK, meanCoverAtK, meanRecallAtK, recallAtK } from './retrieval.js';

describe('retrieval metrics', () => {
  const ranked = ['d3', 'd9', 'd1', 'd7', 'd2'];

  it('Recall@k', () => {
    expect(recallAtK(['d1', 'd2', 'd4'], ranked, 3)).toBeCloseTo(1 / 3, 14);
    expect(recallAtK(['d1', 'd2', 'd4'], ranked, 5)).toBeCloseTo(2 / 3, 14);
    expect(recallAtK([], ranked, 5)).toBeNaN();
    expect(() => recallAtK(['d1'], ranked, 0)).toThrow(/k must be/);
  });

  it('Cover@k and Rp@k', () => {
    const perspectives = [['d1', 'd4'], ['d8'], ['d9']];
    expect(coverAtK(perspectives, ranked, 2)).toBeCloseTo(1 / 3, 14);
    expect(coverAtK(perspectives, ranked, 3)).toBeCloseTo(2 / 3, 14);
    // Rp@k: the judge accepts only the extraction from d1.
    expect(coverAtK(perspectives, ranked, 3, (_j, doc) => doc === 'd1')).toBeCloseTo(1 / 3, 14);
  });

  it('means over queries skip queries with nothing to find', () => {
    const r = meanRecallAtK(
      [
        { relevant: ['d1'], ranked },
        { relevant: [], ranked },
        { relevant: ['d5', 'd9'], ranked },
      ],
      2,
    );
    expect(r).toEqual({ value: 0.25, queriesUsed: 2, queriesSkipped: [1] });
    expect(meanCoverAtK([{ perspectiveEvidence: [['d3'], ['d0']], ranked }], 1).value).toBeCloseTo(0.5, 14);
  });
});
