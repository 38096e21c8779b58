import { describe, expect, it } from '@jest/globals';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { analyze } from './analyzer.js';
import { LsaIndex } from './lsa.js';
import { countTerms, smoothedIdf, TfidfIndex, tfidfVector } from './tfidf.js';

// Two topics, pets and money, bridged only by "new" (pets2, money2); pets3 has no "cat".
const planted = [
  { id: 'pets1', text: 'My cat and my dog are lovely pets.' },
  { id: 'pets2', text: 'The new kitten chased the cat and the dog.' },
  { id: 'pets3', text: 'Puppies and kittens visit the vet with the dog.' },
  { id: 'money1', text: 'Stocks and bonds: the market rallied.' },
  { id: 'money2', text: 'New bond yields rose as stock prices fell.' },
  { id: 'money3', text: 'Investors in the bond market watch yields and prices.' },
];

// 33 documents in four topics of 12, 9, 7 and 5, each topic's words three times and two
// "noise" words: four large singular values well above the rest, as randomized SVD needs.
const topics = [
  'cat dog kitten puppy pet vet',
  'stock bond market yield investor dividend',
  'rain snow wind storm cloud forecast',
  'goal team coach match league score',
];
const noise =
  'red blue green old new big small fast slow loud quiet warm cool dark light soft hard long short wide';
const extra = noise.split(' ');
const noisy = [12, 9, 7, 5]
  .flatMap((n, t) => Array.from({ length: n }, () => topics[t]!))
  .map((w, i) => ({ id: `g${i}`, text: `${w} ${w} ${w} ${extra[i % 20]} ${extra[(i * 7 + 3) % 20]}` }));

// The dense TF-IDF matrix (sorted terms) and query vectorizer, from the shared weighting.
function denseTfidf(docs: readonly { text: string }[]): { a: Matrix; vectorize: (text: string) => number[] } {
  const counts = docs.map((d) => countTerms(analyze(d.text)));
  const df = new Map<string, number>();
  for (const c of counts) for (const t of c.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const terms = [...df.keys()].sort();
  const row = (tf: Map<string, number>) => {
    const v = tfidfVector(tf, (t) => smoothedIdf(docs.length, df.get(t)!));
    return terms.map((t) => v.get(t) ?? 0);
  };
  return {
    a: new Matrix(counts.map(row)),
    vectorize: (text) => row(countTerms(analyze(text), (t) => df.has(t))),
  };
}

function cosine(x: readonly number[], y: readonly number[]): number {
  const dot = x.reduce((s, xi, i) => s + xi * y[i]!, 0);
  return dot / (Math.hypot(...x) * Math.hypot(...y));
}

// Every document's score, 0 for those not ranked.
function allScores(search: (q: string, k: number) => { hits: { id: string; score: number }[] }, q: string) {
  const hits = new Map(search(q, planted.length).hits.map((h) => [h.id, h.score]));
  return planted.map((d) => hits.get(d.id) ?? 0);
}

describe('LSA (randomized truncated SVD of TF-IDF)', () => {
  it('ranks a topic first, with a document that shares no word with the query', () => {
    const lsa = new LsaIndex(planted, { dimensions: 2 });
    expect(lsa.dimensions).toBe(2);
    const r = lsa.search('cats', 10);
    expect(r.hits.map((h) => h.id)).toEqual(['pets3', 'pets1', 'pets2', 'money2']);
    expect(r.hits[2]!.score).toBeGreaterThan(0.99);
    expect(r.hits[3]!.score).toBeLessThan(0.2);
    // TF-IDF only sees the literal word.
    expect(
      TfidfIndex.build(planted)
        .search('cats', 10)
        .hits.map((h) => h.id),
    ).toEqual(['pets2', 'pets1']);
    expect(lsa.search('stock market', 3).hits.map((h) => h.id)).toEqual(['money1', 'money3', 'money2']);
  });

  it('scores as the cosine in the exact rank-2 space of an SVD by ml-matrix', () => {
    const { a, vectorize } = denseTfidf(planted);
    const v2 = new SingularValueDecomposition(a, { autoTranspose: true }).rightSingularVectors.subMatrix(
      0,
      a.columns - 1,
      0,
      1,
    );
    const lsa = new LsaIndex(planted, { dimensions: 2 });
    for (const q of ['cats', 'new bond market', 'the vet']) {
      const qe = new Matrix([vectorize(q)]).mmul(v2).getRow(0);
      const expected = planted.map((_, i) => cosine(qe, a.subMatrixRow([i]).mmul(v2).getRow(0)));
      const hits = lsa.search(q, planted.length).hits;
      for (const h of hits)
        expect(h.score).toBeCloseTo(expected[planted.findIndex((d) => d.id === h.id)]!, 9);
      expect(hits.length).toBe(expected.filter((s) => s > 0).length);
    }
  });

  // With r = rank A the basis spans the row space: a query in it (any combination of documents)
  // keeps its inner products and its norm, so cosines are TF-IDF's up to rounding (~1e-15). A
  // query outside loses its orthogonal part: every score is TF-IDF's over the same |Pq| < 1.
  it('equals TF-IDF cosine at full rank', () => {
    const lsa = new LsaIndex(planted, { dimensions: 1000 });
    expect(lsa.dimensions).toBe(planted.length);
    const tfidf = TfidfIndex.build(planted);
    for (const q of [planted[0]!.text, `${planted[1]!.text} ${planted[4]!.text}`, planted[5]!.text]) {
      const expected = allScores((x, k) => tfidf.search(x, k), q);
      const actual = allScores((x, k) => lsa.search(x, k), q);
      for (const [i, s] of actual.entries()) expect(s).toBeCloseTo(expected[i]!, 9);
    }
    const lsaCat = allScores((x, k) => lsa.search(x, k), 'cat');
    const tfidfCat = allScores((x, k) => tfidf.search(x, k), 'cat');
    const ratio = lsaCat[0]! / tfidfCat[0]!;
    expect(ratio).toBeGreaterThan(1.1);
    for (const [i, s] of lsaCat.entries()) expect(s).toBeCloseTo(tfidfCat[i]! * ratio, 9);
  });

  it('finds the singular values of an exact SVD', () => {
    const exact = (docs: readonly { text: string }[]) =>
      new SingularValueDecomposition(denseTfidf(docs).a, { autoTranspose: true }).diagonal;
    // 33 x 44 at rank 4: the range finder sees 14 of 33 directions; two power iterations suffice.
    const top = new LsaIndex(noisy, { dimensions: 4 }).singularValues;
    expect(top.length).toBe(4);
    for (const [i, s] of exact(noisy).slice(0, 4).entries()) expect(Math.abs(top[i]! - s)).toBeLessThan(1e-8);
    expect(top[0]).toBeCloseTo(3.3427221, 6);
    // Full rank: the range finder spans everything, so every value is exact to rounding.
    const all = new LsaIndex(planted, { dimensions: 6 }).singularValues;
    for (const [i, s] of exact(planted).entries()) expect(Math.abs(all[i]! - s)).toBeLessThan(1e-12);
  });

  it('is reproducible for a seed, and round-trips through bytes exactly', () => {
    const queries = ['cats', 'new bond market', 'kitten yields', 'unicorn'];
    const a = new LsaIndex(noisy, { dimensions: 3 });
    const b = new LsaIndex(noisy, { dimensions: 3, seed: 42 });
    for (const q of queries) expect(b.search(q, 40)).toEqual(a.search(q, 40));
    expect(b.embed('storm team')).toEqual(a.embed('storm team'));
    const other = new LsaIndex(noisy, { dimensions: 3, seed: 7 });
    expect(other.embed('storm team')).not.toEqual(a.embed('storm team'));

    const bytes = a.serialize();
    const back = LsaIndex.deserialize(bytes);
    expect(back.dimensions).toBe(3);
    expect(back.options).toEqual(a.options);
    expect(back.singularValues).toEqual(a.singularValues);
    for (const q of queries) expect(back.search(q, 40)).toEqual(a.search(q, 40));
    expect(back.embed('storm team')).toEqual(a.embed('storm team'));
    expect(back.serialize()).toEqual(bytes);
    // A copy at an odd offset in a larger buffer reads the same.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(LsaIndex.deserialize(shifted.subarray(3)).search('cats', 5)).toEqual(a.search('cats', 5));
    expect(() => LsaIndex.deserialize(bytes.subarray(0, bytes.length - 8))).toThrow(
      `LSA index of ${bytes.length - 8} bytes does not match its header`,
    );
  });

  it('says when a query has no terms or k is beyond the corpus', () => {
    const lsa = new LsaIndex(planted, { dimensions: 2 });
    expect(lsa.search('the of and', 3)).toEqual({
      hits: [],
      warnings: ['the query has no terms after analysis: nothing is ranked'],
    });
    expect(lsa.search('the of and', 10)).toEqual({
      hits: [],
      warnings: [
        'the query has no terms after analysis: nothing is ranked',
        'k = 10 is more than the 6 documents of the corpus: capped to 6',
      ],
    });
    const capped = lsa.search('cats', 10);
    expect(capped.warnings).toEqual(['k = 10 is more than the 6 documents of the corpus: capped to 6']);
    expect(capped.hits.map((h) => h.id)).toEqual(['pets3', 'pets1', 'pets2', 'money2']);
    expect(lsa.search('unicorn', 3)).toEqual({ hits: [], warnings: [] });
    expect(lsa.embed('unicorn')).toEqual(new Float64Array(2));
    expect(() => new LsaIndex(planted, { dimensions: 0 })).toThrow(
      'LSA dimensions must be a positive integer, got 0',
    );
  });
});
