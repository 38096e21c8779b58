import { describe, expect, it } from '@jest/globals';
import { Bm25Index } from './bm25.js';
import { DenseIndex } from './dense.js';
import { topKDense } from './ranking.js';
import { parseRetriever, retrieverKey, retrieverName } from './retriever-spec.js';
import { TfidfIndex } from './tfidf.js';

const corpus = [
  { id: 'd1', text: 'The cat sat on the mat.' },
  { id: 'd2', text: 'A dog and a cat played.' },
  { id: 'd3', text: "Dogs chase cats; the dogs' bark." },
];

describe('retriever names', () => {
  it('parses every retriever with its defaults into a canonical key', () => {
    expect(retrieverKey(parseRetriever('bm25'))).toBe('bm25(k1=0.9,b=0.4,lower=1,stop=english,stem=porter)');
    expect(retrieverKey(parseRetriever('bm25', { k1: 1.2, b: 0.75, stemmer: 'none' }))).toBe(
      'bm25(k1=1.2,b=0.75,lower=1,stop=english,stem=none)',
    );
    expect(retrieverKey(parseRetriever('lsa'))).toBe(
      'lsa(dims=100,seed=42,lower=1,stop=english,stem=porter)',
    );
    const rrf = parseRetriever('rrf:bm25+dense:e5');
    expect(retrieverName(rrf)).toBe('rrf:bm25+dense:e5');
    expect(retrieverKey(rrf)).toBe(
      'rrf(k=60,depth=100:bm25(k1=0.9,b=0.4,lower=1,stop=english,stem=porter)+dense(model=e5))',
    );
  });
  it('lists the choices for an unknown retriever and refuses a one-part fusion', () => {
    expect(() => parseRetriever('bm26')).toThrow(
      'unknown retriever "bm26": choose one of bm25, tfidf, lsa, dense:<embedding model>, rrf:<a>+<b>[+<c>...]',
    );
    expect(() => parseRetriever('dense:')).toThrow('unknown retriever "dense:"');
    expect(() => parseRetriever('rrf:bm25')).toThrow(
      'retriever "rrf:bm25": rank fusion takes two or more retrievers joined by \'+\', e.g. rrf:bm25+lsa (no nested rrf)',
    );
  });
});

describe('persisted indexes', () => {
  it('rank exactly the same after a byte round trip', () => {
    const bm25 = Bm25Index.build(corpus);
    const bytes = bm25.serialize();
    const again = Bm25Index.deserialize(bytes.slice());
    for (const q of ['dogs', 'cat mat', 'bark']) expect(again.search(q, 3)).toEqual(bm25.search(q, 3));
    const tfidf = TfidfIndex.build(corpus);
    expect(TfidfIndex.deserialize(tfidf.serialize()).search('dog cat', 3)).toEqual(
      tfidf.search('dog cat', 3),
    );
    expect(() => TfidfIndex.deserialize(bytes)).toThrow('not a TF-IDF index (it holds bm25)');
  });
  it('dense: cosine over unit rows, ties in corpus order, <= 0 unranked', () => {
    const dense = DenseIndex.fromVectors(
      'm',
      ['a', 'b', 'c'],
      [
        [1, 0],
        [0, 2],
        [3, 0],
      ],
    );
    expect(dense.search([2, 0], 3)).toEqual({
      hits: [
        { id: 'a', score: 1 },
        { id: 'c', score: 1 },
      ],
      warnings: [],
    });
    expect(
      DenseIndex.deserialize(dense.serialize())
        .search([1, 1], 1)
        .hits.map((h) => h.id),
    ).toEqual(['a']);
    expect(() => dense.search([1, 0, 0], 1)).toThrow('the query embedding has 3 dimensions, the index 2');
  });
  it('topKDense keeps the k best with ties by corpus order', () => {
    const scores = Float64Array.from([0.5, 0.9, 0.5, 0, 0.7, 0.5]);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const r = topKDense(ids, scores, [5, 4, 3, 2, 1, 0], 4, false);
    expect(r.hits.map((h) => h.id)).toEqual(['b', 'e', 'a', 'c']);
  });
});
