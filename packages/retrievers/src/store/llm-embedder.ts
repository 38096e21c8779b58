import type { LlmClient } from '@precis/llm';
import type { Embedder } from './dense-build.js';

// Embeddings through the shared model client: every call is limited, retried, cached and
// written to the ledger (with the run and task when one asked for it).
export function llmEmbedder(client: LlmClient): Embedder {
  return {
    embed: async (model, texts, attach) => (await client.embed({ model, input: texts, ...attach })).vectors,
    modelId: (model) => client.registry.get(model).modelId,
  };
}

export type EmbedCall = (request: {
  model: string;
  input: string[];
  runId?: string;
  taskId?: string;
  cache?: boolean;
}) => Promise<{ vectors: number[][] }>;

// Embeddings through a run's model access (a family's RunContext.chat.embed): cached and ledgered
// with the task that asked.
export function embedderOver(embed: EmbedCall, modelId: (model: string) => string): Embedder {
  return {
    embed: async (model, texts, attach) =>
      (await embed({ model, input: texts, ...attach, cache: true })).vectors,
    modelId,
  };
}
