import { CorpusDocumentEntity, DatasetEntity, RetrievalIndexEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import { Bm25Index } from '../bm25.js';
import { DenseIndex } from '../dense.js';
import { LsaIndex } from '../lsa.js';
import type { Ranking } from '../ranking.js';
import { type RetrieverSpec, retrieverKey } from '../retriever-spec.js';
import { reciprocalRankFusion } from '../rrf.js';
import { TfidfIndex } from '../tfidf.js';
import type { Embedder } from './dense-build.js';
import { buildIndex, type StoredIndex } from './in-memory.js';

export interface Corpus {
  datasetId: string;
  datasetName: string;
  // The dataset's content hash: an index built from other content is rebuilt.
  sha256: string;
  kind: string;
}

export interface Searcher {
  readonly key: string;
  // `attach`: the run and task whose ledger a query embedding is charged to.
  search(query: string, k: number, attach?: { runId: string; taskId: string }): Promise<Ranking>;
}

export class RetrievalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetrievalConfigError';
  }
}

// What happened to each index opened, for the caller to report (built or loaded, how long).
export interface IndexEvent {
  key: string;
  dataset: string;
  action: 'built' | 'loaded';
  documents: number;
  ms: number;
  bytes: number;
}

// Indexes per (dataset, retriever, parameters): read from retrieval_indexes when built already
// for the dataset's content, else built from corpus_documents and stored for every process and
// run. A few recently used ones stay in memory.
export class IndexStore {
  private readonly cache = new Map<string, Promise<StoredIndex>>();

  constructor(
    private readonly db: DataSource,
    private readonly opts: {
      embedder?: Embedder;
      cacheSize?: number;
      onIndex?: (e: IndexEvent) => void;
    } = {},
  ) {}

  static async corpus(db: DataSource, datasetName: string): Promise<Corpus> {
    const row = await db.getRepository(DatasetEntity).findOne({ where: { name: datasetName } });
    if (!row)
      throw new RetrievalConfigError(
        `dataset "${datasetName}" not found; list imported datasets with \`precis datasets ls\``,
      );
    return { datasetId: row.id, datasetName: row.name, sha256: row.sourceSha256, kind: row.kind };
  }

  async searcher(corpus: Corpus, spec: RetrieverSpec): Promise<Searcher> {
    const key =
      spec.kind === 'dense'
        ? `dense(model=${spec.model},id=${this.requireEmbedder(spec).modelId(spec.model)})`
        : retrieverKey(spec);
    if (spec.kind === 'rrf') {
      const parts = await Promise.all(spec.parts.map((p) => this.searcher(corpus, p)));
      return {
        key,
        search: async (query, k, attach) => {
          const rankings = await Promise.all(
            parts.map((p) => p.search(query, Math.max(k, spec.depth), attach)),
          );
          return reciprocalRankFusion(rankings, k, spec.k);
        },
      };
    }
    const index = await this.open(corpus, spec, key);
    if (index instanceof DenseIndex) {
      const embedder = this.requireEmbedder(spec);
      return {
        key,
        search: async (query, k, attach) =>
          index.search((await embedder.embed(index.model, [query], attach))[0]!, k),
      };
    }
    return { key, search: async (query, k) => index.search(query, k) };
  }

  private requireEmbedder(spec: RetrieverSpec): Embedder {
    if (!this.opts.embedder)
      throw new RetrievalConfigError(
        `retriever ${retrieverKey(spec)} needs an embeddings endpoint: give a model registry (--models) naming the model`,
      );
    return this.opts.embedder;
  }

  private open(corpus: Corpus, spec: RetrieverSpec, key: string): Promise<StoredIndex> {
    const cacheKey = `${corpus.datasetId}:${corpus.sha256}:${key}`;
    let found = this.cache.get(cacheKey);
    if (!found) {
      found = this.loadOrBuild(corpus, spec, key);
      found.catch(() => this.cache.delete(cacheKey));
      this.cache.set(cacheKey, found);
      const max = this.opts.cacheSize ?? 8;
      for (const old of this.cache.keys()) if (this.cache.size > max) this.cache.delete(old);
    }
    return found;
  }

  private async loadOrBuild(corpus: Corpus, spec: RetrieverSpec, key: string): Promise<StoredIndex> {
    const started = performance.now();
    const stored = await this.db.getRepository(RetrievalIndexEntity).findOne({
      where: { datasetId: corpus.datasetId, key, datasetSha256: corpus.sha256 },
    });
    if (stored) {
      const index = deserialize(spec, stored.data);
      this.report(corpus, key, 'loaded', index.size, started, stored.data.length);
      return index;
    }
    const docs = await this.corpusDocuments(corpus);
    const index = await this.build(spec, docs);
    const data = index.serialize();
    const buildMs = Math.round(performance.now() - started);
    await this.save(corpus, key, data, docs.length, buildMs);
    this.report(corpus, key, 'built', docs.length, started, data.length);
    return index;
  }

  private report(
    corpus: Corpus,
    key: string,
    action: 'built' | 'loaded',
    documents: number,
    started: number,
    bytes: number,
  ) {
    const ms = Math.round(performance.now() - started);
    this.opts.onIndex?.({ key, dataset: corpus.datasetName, action, documents, ms, bytes });
  }

  private build(spec: RetrieverSpec, docs: { id: string; text: string }[]): Promise<StoredIndex> {
    return buildIndex(spec, docs, spec.kind === 'dense' ? this.requireEmbedder(spec) : undefined);
  }

  private async corpusDocuments(corpus: Corpus): Promise<{ id: string; text: string }[]> {
    const rows = await this.db.getRepository(CorpusDocumentEntity).find({
      select: { externalId: true, text: true },
      where: { datasetId: corpus.datasetId },
      order: { ordinal: 'ASC' },
    });
    if (rows.length === 0)
      throw new RetrievalConfigError(
        `dataset "${corpus.datasetName}" has no retrieval corpus: import a persphere or retrieval dataset (queries file plus --documents)`,
      );
    return rows.map((r) => ({ id: r.externalId, text: r.text }));
  }

  // Two processes building the same index store the same bytes: the first row stays, and a row
  // of the dataset's previous content is replaced.
  private async save(
    corpus: Corpus,
    key: string,
    data: Uint8Array,
    documents: number,
    buildMs: number,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO retrieval_indexes (dataset_id, key, dataset_sha256, data, documents, build_ms)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (dataset_id, key) DO UPDATE SET dataset_sha256 = EXCLUDED.dataset_sha256, data = EXCLUDED.data,
         documents = EXCLUDED.documents, build_ms = EXCLUDED.build_ms, created_at = now()
       WHERE retrieval_indexes.dataset_sha256 <> EXCLUDED.dataset_sha256`,
      [
        corpus.datasetId,
        key,
        corpus.sha256,
        Buffer.from(data.buffer, data.byteOffset, data.byteLength),
        documents,
        buildMs,
      ],
    );
  }
}

function deserialize(spec: RetrieverSpec, data: Uint8Array): StoredIndex {
  switch (spec.kind) {
    case 'bm25':
      return Bm25Index.deserialize(data);
    case 'tfidf':
      return TfidfIndex.deserialize(data);
    case 'lsa':
      return LsaIndex.deserialize(data);
    default:
      return DenseIndex.deserialize(data);
  }
}
