import { ConfigurationError, type RunContext } from '@precis/engine/family';
import {
  embedderOver,
  type Embedder as IndexEmbedder,
  rankInMemory,
  retrieverName,
} from '@precis/retrievers';
import { recordEmbedder } from '../embedder.js';
import { RecordGraph } from '../gat/graph.js';
import type { RankedNodes } from '../payloads.js';
import { GorTaskError, nodeTexts, type StepContext } from './step-context.js';

function indexEmbedder(ctx: RunContext): IndexEmbedder | undefined {
  const chat = ctx.chat;
  if (!chat?.embed) return undefined;
  return embedderOver(
    (r) => chat.embed!(r),
    (model) => ctx.modelInfo?.(model)?.modelId ?? model,
  );
}

// GoR untrained (METHODS.md §5.9): the nodes' raw embeddings against the global query's.
async function rawEmbeddings(s: StepContext): Promise<RankedNodes> {
  const embedder = await recordEmbedder(s);
  const texts = nodeTexts(s);
  const [vectors, [query]] = await Promise.all([
    embedder.embed(texts),
    embedder.embed([s.meeting.globalQuery]),
  ]);
  // The graph's own retrieval (cosine, ties by node order), without its edges.
  const nodes = new RecordGraph(vectors).retrieve(query!, s.settings.k);
  return { nodes, ranker: `raw embeddings (${embedder.label})` };
}

// The top K nodes for the global query: raw embeddings (gor untrained), or the system's retriever
// over the chunks (rag) or the chunks plus the records' responses (thought-retriever).
export async function rankStep(s: StepContext): Promise<RankedNodes & { warnings: string[] }> {
  if (s.settings.strategy === 'gor') return { ...(await rawEmbeddings(s)), warnings: [] };
  const texts = s.settings.strategy === 'rag' ? s.chunks : nodeTexts(s);
  const docs = texts.map((text, i) => ({ id: String(i), text }));
  const embedder = indexEmbedder(s.ctx);
  if (!embedder && retrieverName(s.settings.retriever).includes('dense:'))
    throw new ConfigurationError(
      `task ${s.ref.id}: retriever ${s.settings.retrieverName} needs an embeddings endpoint: give a model registry naming the model`,
    );
  const ranking = await rankInMemory(
    s.settings.retriever,
    docs,
    s.meeting.globalQuery,
    s.settings.k,
    embedder,
    s.attach,
  );
  if (ranking.hits.length === 0)
    throw new GorTaskError(
      `meeting ${s.meeting.externalId}: retriever ${s.settings.retrieverName} ranked nothing for "${s.meeting.globalQuery}" (${ranking.warnings.join('; ') || 'no matching term'})`,
    );
  return {
    nodes: ranking.hits.map((h) => Number(h.id)),
    ranker: retrieverName(s.settings.retriever),
    warnings: ranking.warnings,
  };
}
