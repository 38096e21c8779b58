import { describe, expect, it } from '@jest/globals';
import { parseRetriever } from '../retriever-spec.js';
import type { Embedder } from './dense-build.js';
import { rankInMemory } from './in-memory.js';

const docs = [
  { id: 'd1', text: 'The budget meeting approved the marketing budget.' },
  { id: 'd2', text: 'Remote control design with rubber buttons.' },
  { id: 'd3', text: 'The marketing team discussed the remote control budget.' },
  { id: 'd4', text: 'Lunch break and coffee.' },
];

// Fixed vectors per text: the query [2, 1] has cosines d1 2/√5, d2 1/√5, d3 3/√10, d4 < 0.
const vectors: Record<string, number[]> = {
  [docs[0]!.text]: [1, 0],
  [docs[1]!.text]: [0, 1],
  [docs[2]!.text]: [1, 1],
  [docs[3]!.text]: [-1, 0],
  'what did they decide': [2, 1],
};
function fixedEmbedder() {
  const calls: { model: string; texts: string[]; attach?: { runId: string; taskId: string } }[] = [];
  const embedder: Embedder = {
    embed: async (model, texts, attach) => {
      calls.push(attach ? { model, texts, attach } : { model, texts });
      return texts.map((t) => vectors[t]!);
    },
    modelId: (model) => model,
  };
  return { embedder, calls };
}
const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

describe('rankInMemory', () => {
  it('bm25: the documents holding the query terms, the one with more of them first', async () => {
    // d1 holds "budget" twice, d3 once; d2 and d4 not at all (unranked).
    const r = await rankInMemory(parseRetriever('bm25'), docs, 'budget', 3);
    expect(ids(r)).toEqual(['d1', 'd3']);
    expect(r.hits[0]!.score).toBeGreaterThan(r.hits[1]!.score);
    expect(r.warnings).toEqual([]);
    expect(ids(await rankInMemory(parseRetriever('bm25'), docs, 'remote control', 1))).toEqual(['d2']);
  });

  it('rrf fuses bm25 and tf-idf by reciprocal rank (k 60), ties in first-seen order', async () => {
    // For "budget design" bm25 ranks [d2, d1, d3] (d2 is short) and tf-idf [d1, d2, d3].
    const q = 'budget design';
    expect(ids(await rankInMemory(parseRetriever('bm25'), docs, q, 4))).toEqual(['d2', 'd1', 'd3']);
    expect(ids(await rankInMemory(parseRetriever('tfidf'), docs, q, 4))).toEqual(['d1', 'd2', 'd3']);
    const r = await rankInMemory(parseRetriever('rrf:bm25+tfidf'), docs, q, 3);
    // d2 and d1 tie at 1/61 + 1/62; d2 came first (in the bm25 ranking).
    expect(r.hits).toEqual([
      { id: 'd2', score: 1 / 61 + 1 / 62 },
      { id: 'd1', score: 1 / 61 + 1 / 62 },
      { id: 'd3', score: 2 / 63 },
    ]);
    // The parts are read to depth 100, not k: with k 1 d2 still gets its tf-idf rank 2 (else 1/61).
    const top = await rankInMemory(parseRetriever('rrf:bm25+tfidf'), docs, q, 1);
    expect(top.hits).toEqual([{ id: 'd2', score: 1 / 61 + 1 / 62 }]);
  });

  it('dense without an embedder rejects, alone or inside a fusion', async () => {
    await expect(rankInMemory(parseRetriever('dense:e5'), docs, 'budget', 2)).rejects.toThrow(
      'retriever dense:e5 needs an embeddings endpoint',
    );
    await expect(rankInMemory(parseRetriever('rrf:bm25+dense:e5'), docs, 'budget', 2)).rejects.toThrow(
      'needs an embeddings endpoint',
    );
  });

  it('dense ranks by cosine and charges only the query embedding to the task', async () => {
    const { embedder, calls } = fixedEmbedder();
    const attach = { runId: 'run1', taskId: 'run1:retrieve:rag:doc1:rank' };
    const r = await rankInMemory(
      parseRetriever('dense:e5'),
      docs,
      'what did they decide',
      4,
      embedder,
      attach,
    );
    // d4 points away from the query: a cosine <= 0 is not ranked.
    expect(ids(r)).toEqual(['d3', 'd1', 'd2']);
    expect(r.hits.map((h) => h.score)).toEqual([
      expect.closeTo(3 / Math.sqrt(10), 6),
      expect.closeTo(2 / Math.sqrt(5), 6),
      expect.closeTo(1 / Math.sqrt(5), 6),
    ]);
    // The index build embeds the documents uncharged; the query call carries `attach`.
    expect(calls).toEqual([
      { model: 'e5', texts: docs.map((d) => d.text) },
      { model: 'e5', texts: ['what did they decide'], attach },
    ]);
  });
});
