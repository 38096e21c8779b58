import { ConfigurationError, type RunContext } from '@precis/engine';
import { EMBED_BATCH, LsaIndex } from '@precis/retrievers';
import { LSA_EMBEDDER } from './gor-spec.js';

// Node and query features (METHODS.md §5.4) and the word vectors the labels match. The offline
// embedder is LSA fitted on the meeting's chunks: a text's vector is its TF-IDF vector folded into
// the latent space, a word's vector is that word's own fold-in (a row of the term basis). An
// embeddings endpoint embeds texts, and each distinct word on its own (it gives no token vectors).
export interface RecordEmbedder {
  label: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export function lsaEmbedder(chunks: readonly string[], dimensions: number): RecordEmbedder {
  const index = new LsaIndex(
    chunks.map((text, i) => ({ id: String(i), text })),
    { dimensions },
  );
  return {
    label: `engine:lsa(dimensions=${index.dimensions})`,
    embed: async (texts) => texts.map((t) => Float32Array.from(index.embed(t))),
  };
}

export function modelEmbedder(
  ctx: RunContext,
  model: string,
  attach: { runId: string; taskId: string },
): RecordEmbedder {
  const chat = ctx.chat;
  if (!chat?.embed)
    throw new ConfigurationError(
      `task ${attach.taskId}: embedder ${model} needs an embeddings endpoint, but no model registry is configured`,
    );
  return {
    label: `model:${model}`,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH) {
        const { vectors } = await chat.embed!({
          model,
          input: texts.slice(i, i + EMBED_BATCH),
          ...attach,
          cache: true,
        });
        out.push(...vectors.map((v) => Float32Array.from(v)));
      }
      return out;
    },
  };
}

export function recordEmbedder(
  ctx: RunContext,
  name: string,
  chunks: readonly string[],
  dimensions: number,
  attach: { runId: string; taskId: string },
): RecordEmbedder {
  return name === LSA_EMBEDDER ? lsaEmbedder(chunks, dimensions) : modelEmbedder(ctx, name, attach);
}
