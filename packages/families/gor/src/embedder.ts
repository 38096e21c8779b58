import { ConfigurationError, documentTexts, type RunContext, runDocuments } from '@precis/engine/family';
import { EMBED_BATCH, LsaIndex } from '@precis/retrievers';
import { LSA_EMBEDDER } from './gor-spec.js';
import { meetingChunks } from './meeting.js';
import type { StepContext } from './steps/step-context.js';

// Node and query features (METHODS.md §5.4). The offline embedder is LSA fitted on the chunks of
// every meeting of the run's dataset (one space, so one model can train on all their graphs): a
// text's vector is its TF-IDF vector folded into the latent space, and a word's vector (for the
// labels) that word's own fold-in, a row of the term basis. An embeddings endpoint embeds texts,
// and each distinct word on its own (it gives no token vectors).
export interface RecordEmbedder {
  label: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

// Fitted spaces by run, dataset and settings: a process fits each once for all its tasks.
const fitted = new Map<string, Promise<LsaIndex>>();
const KEEP = 4;

async function fitLsa(s: StepContext): Promise<LsaIndex> {
  const docs = (await runDocuments(s.ctx, s.spec)).filter((d) => d.datasetId === s.meeting.datasetId);
  const texts = await documentTexts(
    s.ctx.db,
    docs.map((d) => d.id),
  );
  const chunks = docs.flatMap((d) =>
    meetingChunks(texts.get(d.id) ?? '', s.settings.chunkTokens, s.settings.chunkOverlap),
  );
  return new LsaIndex(
    chunks.map((text, i) => ({ id: String(i), text })),
    { dimensions: s.settings.dimensions },
  );
}

export async function lsaEmbedder(s: StepContext): Promise<RecordEmbedder> {
  const { chunkTokens, chunkOverlap, dimensions } = s.settings;
  const key = `${s.ref.runId}:${s.meeting.datasetId}:${chunkTokens}:${chunkOverlap}:${dimensions}`;
  let index = fitted.get(key);
  if (!index) {
    index = fitLsa(s);
    index.catch(() => fitted.delete(key));
    fitted.set(key, index);
    for (const old of fitted.keys()) if (fitted.size > KEEP) fitted.delete(old);
  }
  const lsa = await index;
  return {
    label: `engine:lsa(dimensions=${lsa.dimensions})`,
    embed: async (texts) => texts.map((t) => Float32Array.from(lsa.embed(t))),
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

export function recordEmbedder(s: StepContext): Promise<RecordEmbedder> {
  return s.settings.embedder === LSA_EMBEDDER
    ? lsaEmbedder(s)
    : Promise.resolve(modelEmbedder(s.ctx, s.settings.embedder, s.attach));
}
