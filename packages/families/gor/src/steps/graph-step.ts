import { producerOf } from '@precis/engine/family';
import { EXTRACTIVE_RESPONDER, queryFocusedAnswer } from '@precis/engines';
import { recordEmbedder } from '../embedder.js';
import { RecordGraph } from '../gat/graph.js';
import type { RecordsGraph } from '../payloads.js';
import { parseGorText } from '../prompts/gor.parsers.js';
import { GOR_RESPOND_TEMPLATE } from '../prompts/gor.templates.js';
import { askSystem, GorTaskError, type StepContext } from './step-context.js';

// Supporting materials as the prompts show them: numbered, one per paragraph.
export const formatMaterials = (texts: readonly string[]): string =>
  texts.map((t, i) => `[${i + 1}] ${t.trim()}`).join('\n\n');

// The graph of records (METHODS.md §5.3): query by query, the top K of the chunks and the earlier
// responses (the embedder's cosine), a RAG response from them, which joins the graph linked to
// each node it was given.
export async function graphStep(s: StepContext): Promise<RecordsGraph> {
  const queries = s.payload.queries?.queries;
  if (!queries?.length) throw new GorTaskError(`task ${s.ref.id}: no simulated queries in the payload`);
  const embedder = await recordEmbedder(s);
  const graph = new RecordGraph(await embedder.embed(s.chunks));
  const questionVectors = await embedder.embed(queries.map((q) => q.question));
  const texts = [...s.chunks];
  const responses: string[] = [];
  const retrieved: number[][] = [];
  for (const [i, q] of queries.entries()) {
    const top = graph.retrieve(questionVectors[i]!, s.settings.k);
    const materials = top.map((n) => texts[n]!);
    const response =
      s.system.model === undefined
        ? queryFocusedAnswer(q.question, materials, s.settings.responseWords)
        : await askSystem(
            s,
            GOR_RESPOND_TEMPLATE,
            { materials: formatMaterials(materials), query: q.question },
            parseGorText,
          );
    if (response === '') throw new GorTaskError(`query ${i + 1} ("${q.question}") got an empty response`);
    const [vector] = await embedder.embed([response]);
    graph.addResponse(vector!, top);
    texts.push(response);
    responses.push(response);
    retrieved.push(top);
  }
  return {
    responses,
    retrieved,
    embedder: embedder.label,
    responder:
      s.system.model === undefined ? `engine:${EXTRACTIVE_RESPONDER} (heuristic)` : producerOf(s.system),
  };
}
