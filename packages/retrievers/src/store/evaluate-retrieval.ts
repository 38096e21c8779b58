import { DocumentEntity } from '@precis/db';
import { meanCoverAtK, meanRecallAtK } from '@precis/metrics';
import type { DataSource } from 'typeorm';
import { type RetrieverSpec, retrieverName } from '../retriever-spec.js';
import { IndexStore, RetrievalConfigError } from './index-store.js';
import { type QueryTargets, queryTargets } from './query-targets.js';

export interface RetrievalEvaluation {
  dataset: string;
  retriever: string;
  // The retriever with every parameter (the persisted index's key).
  retrieverKey: string;
  queries: number;
  // Percent, mean over queries, per k.
  recall: Record<string, number>;
  // Cover@k (PerSphere: share of gold perspectives with an evidence document in the top k);
  // null for a generic retrieval dataset, which has no perspectives.
  cover: Record<string, number> | null;
  // What shortened rankings (queries with no terms after analysis, k capped), with counts.
  warnings: string[];
}

// Recall@k and Cover@k (METHODS.md §3.2) of one retriever over every query of a dataset; the
// retrieval query is the query text (PerSphere: its title), never its claims.
export async function evaluateRetrieval(
  db: DataSource,
  store: IndexStore,
  opts: {
    dataset: string;
    retriever: RetrieverSpec;
    ks: number[];
    onQuery?: (done: number, total: number) => void;
  },
): Promise<RetrievalEvaluation> {
  const dataset = await IndexStore.corpus(db, opts.dataset);
  if (dataset.kind !== 'persphere' && dataset.kind !== 'retrieval')
    throw new RetrievalConfigError(
      `dataset "${opts.dataset}" is of kind ${dataset.kind}; retrieval evaluation needs a persphere or retrieval dataset (queries with their relevant documents)`,
    );
  const searcher = await store.searcher(dataset, opts.retriever);
  const queries = await db.getRepository(DocumentEntity).find({
    select: { externalId: true, text: true, data: true },
    where: { datasetId: dataset.datasetId },
    order: { ordinal: 'ASC' },
  });
  const depth = Math.max(...opts.ks);
  const warnings = new Map<string, number>();
  const judged: (QueryTargets & { ranked: string[] })[] = [];
  for (const [i, q] of queries.entries()) {
    const ranking = await searcher.search(q.text, depth);
    for (const w of ranking.warnings) warnings.set(w, (warnings.get(w) ?? 0) + 1);
    judged.push({ ...queryTargets(dataset.kind, q.data), ranked: ranking.hits.map((h) => h.id) });
    opts.onQuery?.(i + 1, queries.length);
  }
  const percent = (f: (k: number) => number) =>
    Object.fromEntries(opts.ks.map((k) => [String(k), 100 * f(k)]));
  return {
    dataset: dataset.datasetName,
    retriever: retrieverName(opts.retriever),
    retrieverKey: searcher.key,
    queries: queries.length,
    recall: percent((k) => meanRecallAtK(judged, k).value),
    cover:
      dataset.kind === 'persphere'
        ? percent((k) => meanCoverAtK(judged as Required<(typeof judged)[number]>[], k).value)
        : null,
    warnings: [...warnings].map(([w, n]) => `${n} ${n === 1 ? 'query' : 'queries'}: ${w}`),
  };
}
