import { describe, expect, it } from '@jest/globals';
import { type RankCandidate, rankByEvidence } from './evidence-rank.js';

const opts = { alpha: 0.05, resamples: 1000, seed: 1 };
const docs = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
// A candidate scored on documents d0, d1, ... in order; its score is their mean.
const system = (name: string, values: readonly number[] | null): RankCandidate => ({
  system: name,
  score: values === null ? null : mean(values),
  values: new Map((values ?? []).map((v, i) => [`d${i}`, v])),
});
const shown = (candidates: RankCandidate[], o: Partial<typeof opts> = {}) => {
  const r = rankByEvidence(candidates, { ...opts, ...o });
  return r.order.map((i) => [candidates[i]!.system, r.labels[i]]);
};

describe('rankByEvidence', () => {
  it('gives identical scores one shared rank', () => {
    const same = [80, 90, 70, 85, 75, 95];
    const r = rankByEvidence([system('c', same), system('a', same), system('b', same)], opts);
    expect(r.ranks).toEqual([1, 1, 1]);
    expect(r.labels).toEqual(['=1', '=1', '=1']);
    expect(r.order).toEqual([1, 2, 0]);
    expect(r.tests.map((t) => [t.p, t.pHolm, t.significant])).toEqual([
      [1, 1, false],
      [1, 1, false],
      [1, 1, false],
    ]);
    expect(r.notes).toEqual([]);
  });

  it('ranks two clearly separated systems 1 and 2', () => {
    const r = rankByEvidence(
      [system('weak', [10, 12, 11, 9, 10, 11]), system('strong', [90, 88, 91, 92, 89, 90])],
      opts,
    );
    expect([r.ranks, r.labels, r.order, r.documents]).toEqual([[2, 1], ['2', '1'], [1, 0], 6]);
    expect(r.tests).toEqual([
      { better: 1, worse: 0, documents: 6, meanDiff: 79.5, p: 2 / 1001, pHolm: 2 / 1001, significant: true },
    ]);
  });

  it('separates only the extremes of three: =1, =1, 2', () => {
    const high = [60, 70, 65, 75, 68, 72];
    const low = high.map((x) => x - 20);
    const middle = [40, 90, 30, 95, 45, 80];
    expect(shown([system('low', low), system('middle', middle), system('high', high)])).toEqual([
      ['high', '=1'],
      ['middle', '=1'],
      ['low', '2'],
    ]);
  });

  it('orders a lower value first when lower is better', () => {
    const r = rankByEvidence([system('far', [9, 8, 9, 10, 9]), system('near', [1, 2, 1, 1, 2])], {
      ...opts,
      higherIsBetter: false,
    });
    expect([r.labels, r.order]).toEqual([
      ['2', '1'],
      [1, 0],
    ]);
  });

  it('lets every system share rank 1 on fewer than 5 documents, and says why', () => {
    const one = rankByEvidence([system('a', [100]), system('b', [100]), system('c', [100])], opts);
    expect([one.labels, one.documents]).toEqual([['=1', '=1', '=1'], 1]);
    expect(one.notes).toEqual([
      'Only 1 document: no system can be shown better (a paired test needs 5); all share rank 1.',
    ]);
    // Four documents of a consistent difference: still not tested.
    const four = rankByEvidence([system('a', [90, 91, 92, 93]), system('b', [10, 11, 12, 13])], opts);
    expect([four.labels, four.tests[0]!.p, four.tests[0]!.significant]).toEqual([['=1', '=1'], null, false]);
    expect(four.notes).toEqual([
      'Only 4 documents: no system can be shown better (a paired test needs 5); all share rank 1.',
    ]);
  });

  it('shares rank 1 when no per-document values are stored', () => {
    const r = rankByEvidence(
      [
        { system: 'a', score: 2, values: new Map() },
        { system: 'b', score: 3, values: new Map() },
      ],
      opts,
    );
    expect([r.labels, r.order, r.documents]).toEqual([['=1', '=1'], [1, 0], 0]);
    expect(r.notes).toEqual([
      'No documents to compare (no per-document values of the ranking metric): all share rank 1.',
    ]);
  });

  it('leaves a row without a score unranked, last, and out of the tests', () => {
    const r = rankByEvidence(
      [
        system('z-failed', null),
        system('b', [5, 6, 5, 6, 5]),
        system('a-failed', null),
        system('c', [1, 2, 1, 2, 1]),
      ],
      opts,
    );
    expect(r.order.map((i) => [r.ranks[i], r.labels[i]])).toEqual([
      [1, '1'],
      [2, '2'],
      [null, '–'],
      [null, '–'],
    ]);
    expect(r.order).toEqual([1, 3, 2, 0]);
    expect(r.tests).toHaveLength(1);
    // One ranked row alone: rank 1, nothing to note.
    const alone = rankByEvidence([system('a', [1, 2]), system('b', null)], opts);
    expect([alone.labels, alone.documents, alone.notes]).toEqual([['1', '–'], 2, []]);
  });

  it('pairs each two systems on the documents both scored', () => {
    const a: RankCandidate = { system: 'a', score: 9, values: new Map(docs(6).map((d) => [d, 9])) };
    const b: RankCandidate = {
      system: 'b',
      score: 1,
      values: new Map(
        docs(6)
          .slice(1)
          .map((d) => [d, 1]),
      ),
    };
    const r = rankByEvidence([a, b], opts);
    expect([r.tests[0]!.documents, r.labels]).toEqual([5, ['1', '2']]);
  });

  // The GoR example's cross-run leaderboard ranked full-context (mean 11.18) 1 and rrf (11.25) 4:
  // three systems beat rrf on every meeting, none beats the uneven full-context.
  it('orders the GoR case by mean and says the tests are not transitive', () => {
    const rrf = [11, 11.5, 11.2, 11.3, 11.25];
    const plus = (d: readonly number[]) => rrf.map((x, i) => x + d[i]!);
    const candidates = [
      system('full-context', [6, 16, 8, 14, 11.9]),
      system('gor-untrained', [9, 13, 10, 12, 10.5]),
      system('rrf', rrf),
      system('thought-retriever', [8, 12, 11, 10, 11.5]),
      system('tfidf', plus([0.2, 0.1, 0.15, 0.2, 0.1])),
      system('bm25', plus([0.3, 0.2, 0.4, 0.3, 0.3])),
      system('gor', plus([0.5, 0.4, 0.6, 0.5, 0.5])),
    ];
    const r = rankByEvidence(candidates, opts);
    expect(
      r.order.map((i) => [candidates[i]!.system, Number(candidates[i]!.score!.toFixed(2)), r.labels[i]]),
    ).toEqual([
      ['gor', 11.75, '=1'],
      ['bm25', 11.55, '2'],
      ['tfidf', 11.4, '3'],
      ['rrf', 11.25, '4'],
      ['full-context', 11.18, '=1'],
      ['gor-untrained', 10.9, '=1'],
      ['thought-retriever', 10.5, '=1'],
    ]);
    expect(r.notes).toEqual([
      'The paired tests are not transitive: rrf (mean 11.25, rank 4) is listed above full-context (mean 11.18, rank =1) (8 more such pairs); rows follow the means, ranks the tests.',
    ]);
  });
});
