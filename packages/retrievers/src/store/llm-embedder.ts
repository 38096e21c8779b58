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
