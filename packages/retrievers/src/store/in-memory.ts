import { Bm25Index } from '../bm25.js';
import type { DenseIndex } from '../dense.js';
import { LsaIndex } from '../lsa.js';
import type { Ranking } from '../ranking.js';
import type { RetrieverSpec } from '../retriever-spec.js';
import { reciprocalRankFusion } from '../rrf.js';
import { TfidfIndex } from '../tfidf.js';
import { buildDenseIndex, type Embedder } from './dense-build.js';

export type StoredIndex = Bm25Index | TfidfIndex | LsaIndex | DenseIndex;

// An index of the retriever over the documents (not rank fusion: it fuses its parts' rankings).
export async function buildIndex(
  spec: RetrieverSpec,
  docs: readonly { id: string; text: string }[],
  embedder?: Embedder,
): Promise<StoredIndex> {
  switch (spec.kind) {
    case 'bm25':
      return Bm25Index.build(docs, { k1: spec.k1, b: spec.b, analyzer: spec.analyzer });
    case 'tfidf':
      return TfidfIndex.build(docs, spec.analyzer);
    case 'lsa':
      return new LsaIndex(docs, { dimensions: spec.dimensions, seed: spec.seed, analyzer: spec.analyzer });
    case 'dense':
      if (!embedder) throw new Error(`retriever dense:${spec.model} needs an embeddings endpoint`);
      return buildDenseIndex(embedder, spec.model, docs);
    case 'rrf':
      throw new Error('rank fusion has no index of its own');
  }
}

// The top k of a small, throwaway document set (e.g. one document's chunks), built in memory and
// not stored; `attach` charges the query embedding to a run's task.
export async function rankInMemory(
  spec: RetrieverSpec,
  docs: readonly { id: string; text: string }[],
  query: string,
  k: number,
  embedder?: Embedder,
  attach?: { runId: string; taskId: string },
): Promise<Ranking> {
  if (spec.kind === 'rrf') {
    const rankings = await Promise.all(
      spec.parts.map((p) => rankInMemory(p, docs, query, Math.max(k, spec.depth), embedder, attach)),
    );
    return reciprocalRankFusion(rankings, k, spec.k);
  }
  const index = await buildIndex(spec, docs, embedder);
  if (index instanceof Bm25Index || index instanceof TfidfIndex || index instanceof LsaIndex)
    return index.search(query, k);
  return index.search((await embedder!.embed(index.model, [query], attach))[0]!, k);
}
