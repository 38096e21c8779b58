import { describe, expect, it } from '@jest/globals';
import { analyze } from './analyzer.js';
import { Bm25Index } from './bm25.js';
import { reciprocalRankFusion } from './rrf.js';
import { TfidfIndex } from './tfidf.js';

// Three documents; analyzed: [cat, sat, mat], [dog, cat, plai], [dog, chase, cat, dog, bark].
const corpus = [
  { id: 'd1', text: 'The cat sat on the mat.' },
  { id: 'd2', text: 'A dog and a cat played.' },
  { id: 'd3', text: "Dogs chase cats; the dogs' bark." },
];

describe('English analyzer', () => {
  it('lower-cases, drops Lucene stop words and possessives, and Porter-stems', () => {
    expect(analyze("The Dogs' owner isn't running to Mary's cats")).toEqual([
      'dog',
      'owner',
      "isn't",
      'run',
      'mari',
      'cat',
    ]);
    expect(analyze('the and of')).toEqual([]);
    expect(analyze('Running', { lowercase: false, stopwords: 'none', stemmer: 'none' })).toEqual(['Running']);
  });
});

describe('BM25 (k1 0.9, b 0.4, Lucene idf)', () => {
  const bm25 = Bm25Index.build(corpus);

  // N = 3, avgdl = 11/3. "dog": df 2, idf = ln(1 + 1.5/2.5) = ln 1.6.
  // d2: tf 1, dl 3: ln1.6 * 1.9 / (1 + 0.9 * (0.6 + 0.4 * 3 / (11/3))) = 0.486773
  // d3: tf 2, dl 5: ln1.6 * 3.8 / (2 + 0.9 * (0.6 + 0.4 * 5 / (11/3))) = 0.589267
  it('scores as computed by hand', () => {
    const r = bm25.search('dogs', 10);
    expect(r.hits.map((h) => h.id)).toEqual(['d3', 'd2']);
    expect(r.hits[0]!.score).toBeCloseTo(0.5892667, 6);
    expect(r.hits[1]!.score).toBeCloseTo(0.4867728, 6);
    expect(bm25.idf('dog')).toBeCloseTo(Math.log(1.6), 12);
    // "cat" is in every document: idf ln(1 + 0.5/3.5); d1 and d2 tie and keep corpus order.
    expect(bm25.search('cat mat', 3).hits.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['d1', Number((0.1382956 + 1.0158242).toFixed(6))],
      ['d2', 0.138296],
      ['d3', 0.124924],
    ]);
  });

  it('says when a query has no terms or k is beyond the corpus', () => {
    expect(bm25.search('the of and', 10)).toEqual({
      hits: [],
      warnings: [
        'the query has no terms after analysis: nothing is ranked',
        'k = 10 is more than the 3 documents of the corpus: capped to 3',
      ],
    });
    expect(bm25.search('dog', 1).hits.map((h) => h.id)).toEqual(['d3']);
  });
});

describe('TF-IDF cosine (smoothed idf, l2 norm)', () => {
  it('scores as computed by hand', () => {
    const tfidf = TfidfIndex.build(corpus);
    // idf: cat ln(4/4)+1 = 1, dog ln(4/3)+1, others ln(2)+1.
    const r = tfidf.search('dog cat', 3);
    expect(r.hits.map((h) => h.id)).toEqual(['d3', 'd2', 'd1']);
    expect(r.hits.map((h) => h.score)).toEqual([
      expect.closeTo(0.7241329, 6),
      expect.closeTo(0.6936279, 6),
      expect.closeTo(0.2363698, 6),
    ]);
    expect(tfidf.search('unicorn', 3)).toEqual({ hits: [], warnings: [] });
  });
});

describe('reciprocal rank fusion', () => {
  it('adds 1 / (60 + rank) across rankings', () => {
    const a = {
      hits: [
        { id: 'x', score: 9 },
        { id: 'y', score: 5 },
      ],
      warnings: [],
    };
    const b = {
      hits: [
        { id: 'y', score: 2 },
        { id: 'z', score: 1 },
      ],
      warnings: ['w'],
    };
    const fused = reciprocalRankFusion([a, b], 10);
    expect(fused.hits.map((h) => h.id)).toEqual(['y', 'x', 'z']);
    expect(fused.hits[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused.warnings).toEqual(['w']);
    expect(() => reciprocalRankFusion([a], 10)).toThrow('rank fusion needs two or more rankings, got 1');
  });
});
