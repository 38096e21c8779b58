import { describe, expect, it } from '@jest/globals';
import { agreementFromRatings } from './agreement.js';
import { parseRatingsText } from './ratings-file.js';

describe('parseRatingsText', () => {
  it('maps short ids to canonical ids', () => {
    const f = parseRatingsText(
      'r.jsonl',
      JSON.stringify({
        summaries: ['s1', 's2'],
        sc: [
          [1, 2],
          [3, null],
        ],
      }),
    );
    expect(f.raters).toBe(2);
    expect(f.products[0]!.ratings.sentiment_consistency).toEqual([
      [1, 2],
      [3, null],
    ]);
  });

  it("accepts the publisher's per-rater layout: each product's reviews beside its ratings", () => {
    const f = parseRatingsText(
      'r.jsonl',
      JSON.stringify({
        reviews: ['Great boots.', 'Run narrow.'],
        summaries: ['s1', 's2'],
        fl: [
          [4, 4, 5],
          [1, 1, 2],
        ],
        id: 'p1',
      }),
    );
    expect(f.raters).toBe(3);
    expect(Object.keys(f.products[0]!.ratings)).toEqual(['fluency']);
  });

  it.each([
    ['{"summaries": ["a"], "fl": [[1, 2]]', 'line 1: not valid JSON'],
    ['{"summaries": [], "fl": []}', 'line 1, field summaries:'],
    ['{"summaries": ["a"], "zz": [[1]]}', 'line 1, field zz: unknown dimension "zz"'],
    [
      '{"reviews": ["r"], "summaries": ["a"], "fl": [[1]], "fluidity": [[2]]}',
      'line 1, field fluidity: unknown dimension "fluidity"; use fl, co, re, fa, ac, sc, sp or the canonical ids (ignored fields: summaries, reviews, id, product_id, systems, metadata)',
    ],
    [
      '{"reviews": {"rev1": "r"}, "summaries": {"gpt-4": {"summary": "a", "dimensions": {"Fluency": 4.33}}}}',
      'line 1, field summaries: this is a mean-ratings file',
    ],
    [
      '{"summaries": ["a", "b"], "fl": [[1, 2]]}',
      'line 1, field fl: needs one row of ratings per summary (2 rows)',
    ],
    ['{"summaries": ["a"], "fl": [["x", 2]]}', 'line 1, field fl[0][0]: a rating must be a number or null'],
    [
      '{"summaries": ["a"], "fl": [[1, 2]]}\n{"summaries": ["a"], "co": [[1, 2, 3]]}',
      'line 2, field co[0]: has 3 ratings',
    ],
    ['{"summaries": ["a"]}', 'line 1: no ratings'],
  ])('rejects %s', (text, message) => {
    expect(() => parseRatingsText('r.jsonl', text)).toThrow(`r.jsonl, ${message}`);
  });
});

describe('agreementFromRatings', () => {
  it('computes pairwise RMSE and summary-level correlations over the ratings both raters gave', () => {
    const text = [
      {
        summaries: ['a', 'b', 'c'],
        fl: [
          [1, 1, null],
          [2, 3, 2],
          [3, 3, 3],
        ],
      },
      {
        summaries: ['d', 'e', 'f'],
        fl: [
          [4, 5, 4],
          [2, null, 1],
          [5, 5, null],
        ],
      },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n');
    const r = agreementFromRatings(parseRatingsText('r.jsonl', text)).dimensions.fluency!;
    const p01 = r.pairwise.find((p) => p.raters[0] === 0 && p.raters[1] === 1)!;
    expect(p01.rmse).toBeCloseTo(Math.sqrt(2 / 5), 12);
    // Product 1: (1,2,3) vs (1,3,3); product 2 has (4,5) vs (5,5), constant, so skipped.
    expect(p01.spearman).toBeCloseTo(1.5 / Math.sqrt(3), 12);
    expect(p01.kendall).toBeCloseTo(2 / Math.sqrt(6), 12);
    expect(p01.products).toBe(1);
    expect(r.pairwise).toHaveLength(3);
    expect(r.raterVsMean).toHaveLength(3);
    expect(r.units).toBe(6);
  });
});
