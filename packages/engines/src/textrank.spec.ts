import { describe, expect, it } from '@jest/globals';
import { contentTerms, cosine, tfidfVectors } from './terms.js';
import { pageRank, rankOrder, similarityGraph } from './textrank.js';

describe('terms and TF-IDF', () => {
  it('keeps content words with possessives and plurals folded', () => {
    expect(contentTerms("Darcy's sisters were the ladies of the house, weren't they?")).toEqual([
      'darcy',
      'sister',
      'lady',
      'house',
    ]);
    expect(contentTerms('Is this glass his?')).toEqual(['glass']);
  });

  it('weights terms by smoothed IDF', () => {
    const [v0, v1] = tfidfVectors([['a', 'b', 'b'], ['a']]);
    // N = 2; idf(a) = ln(3/3) + 1 = 1; idf(b) = ln(3/2) + 1.
    expect(v0!.get('a')).toBeCloseTo(1);
    expect(v0!.get('b')).toBeCloseTo(2 * (Math.log(1.5) + 1));
    expect(v1!.get('a')).toBeCloseTo(1);
    const b = 2 * (Math.log(1.5) + 1);
    expect(cosine(v0!, v1!)).toBeCloseTo(1 / Math.sqrt(1 + b * b));
    expect(cosine(v0!, new Map())).toBe(0);
  });
});

describe('TextRank', () => {
  it('builds a cosine similarity graph without self loops', () => {
    const g = similarityGraph([
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
      new Map([['a', 1]]),
      new Map([['c', 1]]),
    ]);
    expect(g[0]).toEqual([{ to: 1, w: expect.closeTo(Math.SQRT1_2, 10) }]);
    expect(g[1]).toEqual([{ to: 0, w: expect.closeTo(Math.SQRT1_2, 10) }]);
    expect(g[2]).toEqual([]);
  });

  it('keeps only the strongest neighbours above the dense limit', () => {
    const v = [
      new Map([['a', 1]]),
      new Map([
        ['a', 1],
        ['b', 3],
      ]),
      new Map([['a', 1]]),
      new Map([
        ['a', 1],
        ['c', 1],
      ]),
    ];
    const g = similarityGraph(v, { denseLimit: 2, neighbours: 1 });
    expect(g[0]).toEqual([{ to: 2, w: expect.closeTo(1, 10) }]);
    // sim(3,0) = sim(3,2) = 1/sqrt2 > sim(3,1): the tie goes to the lower index.
    expect(g[3]).toEqual([{ to: 0, w: expect.closeTo(Math.SQRT1_2, 10) }]);
  });

  it('computes weighted PageRank (hand-solved star graph)', () => {
    // Centre 0 linked to 1 and 2: r1 = 0.05 + 0.425 r0 and r0 + 2 r1 = 1, so r0 = 0.9 / 1.85.
    const star = [
      [
        { to: 1, w: 1 },
        { to: 2, w: 1 },
      ],
      [{ to: 0, w: 1 }],
      [{ to: 0, w: 1 }],
    ];
    const r = pageRank(star);
    expect(r[0]).toBeCloseTo(0.9 / 1.85, 8);
    expect(r[1]).toBeCloseTo((1 - 0.9 / 1.85) / 2, 8);
    expect(r[1]).toBeCloseTo(r[2]!, 12);
  });

  it('spreads the score of sentences without edges uniformly', () => {
    expect(pageRank([[], []])).toEqual([0.5, 0.5]);
    const r = pageRank([[{ to: 1, w: 1 }], [{ to: 0, w: 1 }], []]);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(r[0]).toBeCloseTo(r[1]!, 12);
    expect(r[0]!).toBeGreaterThan(r[2]!);
    expect(pageRank([])).toEqual([]);
  });

  it('orders by score with ties kept in text order', () => {
    expect(rankOrder([0.1, 0.3, 0.3 + 1e-15, 0.2])).toEqual([1, 2, 3, 0]);
  });
});
