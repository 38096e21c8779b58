import { ConfigurationError, type RunContext, type TaskKind, taskSystem } from '@precis/engine/family';
import {
  type Embedder,
  embedderOver,
  IndexStore,
  type Ranking,
  RetrievalConfigError,
} from '@precis/retrievers';
import type { DataSource } from 'typeorm';
import { persphereSettings } from '../persphere-spec.js';
import { goldEvidence, loadQuery } from '../query.js';

export const RETRIEVE_STEP = 'retrieve';

export interface RetrievePayload {
  type: 'persphere-retrieve';
  system: string;
  documentId: string;
}

// What the summarize steps and the retrieval metrics read: the top-k ids, best first.
export interface RetrieveResult {
  [key: string]: unknown;
  text: string;
  hits: Ranking['hits'];
  warnings: string[];
  retriever: string;
}

// One index store per database in a process: indexes loaded once serve every task.
const stores = new WeakMap<DataSource, IndexStore>();

function embedderOf(ctx: RunContext): Embedder | undefined {
  const chat = ctx.chat;
  if (!chat?.embed) return undefined;
  return embedderOver(
    (r) => chat.embed!(r),
    (model) => ctx.modelInfo?.(model)?.modelId ?? model,
  );
}

function storeOf(ctx: RunContext): IndexStore {
  let store = stores.get(ctx.db);
  if (!store) {
    const embedder = embedderOf(ctx);
    store = new IndexStore(ctx.db, {
      ...(embedder ? { embedder } : {}),
      onIndex: (e) => ctx.logger.info(`retrieval index ${e.action}`, { ...e }),
    });
    stores.set(ctx.db, store);
  }
  return store;
}

// The retrieval service's task: the top-k corpus documents for a unit's query (the query text,
// not its claims), or its gold evidence for a golden-documents system.
export const persphereRetrieveKind: TaskKind = {
  kind: 'persphere-retrieve',
  stage: 'retrieve',
  async handle(ctx, ref, raw, spec) {
    const payload = raw as unknown as RetrievePayload;
    const settings = persphereSettings(taskSystem(spec, payload.system, ref.id));
    const query = await loadQuery(ctx.db, payload.documentId);
    let ranking: Ranking;
    if (settings.retriever === null) {
      ranking = { hits: goldEvidence(query).map((id) => ({ id, score: 1 })), warnings: [] };
    } else {
      try {
        const searcher = await storeOf(ctx).searcher(query.corpus, settings.retriever);
        ranking = await searcher.search(query.text, settings.k, { runId: ref.runId, taskId: ref.id });
      } catch (err) {
        if (err instanceof RetrievalConfigError)
          throw new ConfigurationError(`task ${ref.id}: ${err.message}`);
        throw err;
      }
    }
    const result: RetrieveResult = {
      text: JSON.stringify(ranking.hits.map((h) => h.id)),
      hits: ranking.hits,
      warnings: ranking.warnings,
      retriever: settings.retrieverName,
    };
    return { result };
  },
};
