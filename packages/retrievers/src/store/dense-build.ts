import { DenseIndex } from '../dense.js';

// Embeddings through the model registry (the LLM client: batched, cached and ledgered calls).
export interface Embedder {
  // `attach`: the run and task a query's call is charged to (index builds are shared: none).
  embed(model: string, texts: string[], attach?: { runId: string; taskId: string }): Promise<number[][]>;
  // What the name stands for at the endpoint (its model id): a changed one rebuilds the index.
  modelId(model: string): string;
}

// Documents per embeddings request: large enough to amortize a call, small enough for any
// OpenAI-compatible server's input-array limit (OpenAI allows 2048).
export const EMBED_BATCH = 64;

export async function buildDenseIndex(
  embedder: Embedder,
  model: string,
  docs: readonly { id: string; text: string }[],
): Promise<DenseIndex> {
  const vectors: number[][] = [];
  for (let i = 0; i < docs.length; i += EMBED_BATCH) {
    const batch = docs.slice(i, i + EMBED_BATCH);
    const out = await embedder.embed(
      model,
      batch.map((d) => d.text),
    );
    vectors.push(...out);
  }
  return DenseIndex.fromVectors(
    model,
    docs.map((d) => d.id),
    vectors,
  );
}
