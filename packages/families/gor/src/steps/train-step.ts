import { fitInWorker, type TrainingGraph } from '@precis/gor';
import { recordEmbedder } from '../embedder.js';
import { greedyLabels, labelWords } from '../labels.js';
import type { RankedNodes } from '../payloads.js';
import { GorTaskError, nodeTexts, type StepContext } from './step-context.js';
import { loadWeights, saveWeights, trainingKey } from './weights-store.js';

export interface TrainResult extends RankedNodes {
  training: { epochs: number; lossFirst: number; lossLast: number; seconds: number };
  // Whether the weights came from an earlier run with the same inputs.
  reused: boolean;
  modelKey: string;
  inferenceMs: number;
}

// Node features, query features and greedy-matching labels of the meeting's graph (§5.4, §5.6).
async function trainingGraph(
  s: StepContext,
): Promise<{ graph: TrainingGraph; globalQuery: Float32Array; embedder: string }> {
  const queries = s.payload.queries?.queries ?? [];
  const records = s.payload.graph;
  if (!records || queries.length === 0)
    throw new GorTaskError(`task ${s.ref.id}: no graph of records in the payload`);
  const embedder = recordEmbedder(s.ctx, s.settings.embedder, s.chunks, s.settings.dimensions, s.attach);
  const texts = nodeTexts(s);
  const [features, questions, [globalQuery]] = await Promise.all([
    embedder.embed(texts),
    embedder.embed(queries.map((q) => q.question)),
    embedder.embed([s.meeting.globalQuery]),
  ]);
  const words = labelWords(texts);
  const wordVectors = await embedder.embed(words);
  const labels = greedyLabels(
    texts,
    queries.map((q) => q.chunk),
    new Map(words.map((w, i) => [w, wordVectors[i]!])),
  );
  const dim = features[0]!.length;
  const flat = new Float32Array(texts.length * dim);
  features.forEach((f, i) => {
    flat.set(f, i * dim);
  });
  const chunks = s.chunks.length;
  const graph: TrainingGraph = {
    nodes: texts.length,
    features: flat,
    edges: records.retrieved.flatMap((top, r) => top.map((n) => [chunks + r, n] as [number, number])),
    queries: questions.map((embedding, i) => ({ embedding, labels: labels[i]! })),
  };
  return { graph, globalQuery: globalQuery!, embedder: embedder.label };
}

// Trains GoR on the meeting's graph in a worker thread (or reuses stored weights for the same
// inputs) and ranks its nodes for the global query (§5.5–5.7).
export async function trainStep(s: StepContext): Promise<TrainResult> {
  const { graph, globalQuery, embedder } = await trainingGraph(s);
  const model = { heads: 4, dropout: s.settings.dropout, seed: s.spec.seed };
  const training = { ...s.settings.train, inBatchNegatives: true, seed: s.spec.seed };
  const modelKey = trainingKey([graph], { model, training, backend: 'wasm', version: 1 });
  const stored = await loadWeights(s.ctx.db, modelKey);
  const fit = await fitInWorker({
    backend: 'wasm',
    model,
    training,
    graphs: [graph],
    ...(stored ? { weights: stored.weights } : {}),
    rank: { graph: 0, query: globalQuery },
  });
  const report = stored?.training ?? fit.report!;
  if (!stored) await saveWeights(s.ctx.db, modelKey, fit.weights, report);
  s.ctx.logger.info('GoR model ready', { taskId: s.ref.id, reused: !!stored, seconds: report.seconds });
  return {
    nodes: fit.ranking.slice(0, s.settings.k).map((r) => r.node),
    ranker: `gor(${embedder}, alpha=${training.alpha})`,
    training: {
      epochs: report.epochs,
      lossFirst: report.lossFirst,
      lossLast: report.lossLast,
      seconds: report.seconds,
    },
    reused: !!stored,
    modelKey,
    inferenceMs: fit.inferenceMs,
  };
}
