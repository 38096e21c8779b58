import type { BenchmarkSpec, RunContext } from '@precis/engine/family';
import { recordEmbedder } from '../embedder.js';
import { fitInWorker } from '../gat/graph.js';
import type { TrainingGraph } from '../gat/train.js';
import { greedyLabels, labelWords } from '../labels.js';
import type { GorStepPayload, RecordsGraph, TrainedRankings } from '../payloads.js';
import { builtGraphRows } from '../store.js';
import { GorTaskError, loadStep, nodeTexts, type StepContext } from './step-context.js';
import { loadWeights, saveWeights, trainingKey } from './weights-store.js';

export interface TrainResult extends TrainedRankings {
  training: { epochs: number; lossFirst: number; lossLast: number; seconds: number };
  // Meetings whose graphs the model trained on.
  graphs: number;
  // Whether the weights came from an earlier run with the same inputs.
  reused: boolean;
  modelKey: string;
  inferenceMs: number;
}

// Node features, query features and greedy-matching labels of one meeting's graph (§5.4, §5.6).
async function trainingGraph(
  s: StepContext,
): Promise<{ graph: TrainingGraph; globalQuery: Float32Array; embedder: string }> {
  const queries = s.payload.queries?.queries ?? [];
  const records = s.payload.graph!;
  const embedder = await recordEmbedder(s);
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

// Each meeting of the system whose graph of records is built, in run order, as its step context.
async function builtGraphs(
  ctx: RunContext,
  ref: { id: string; runId: string },
  system: string,
  spec: BenchmarkSpec,
): Promise<StepContext[]> {
  const rows = await builtGraphRows(ctx.db, ref.runId, system);
  if (rows.length === 0)
    throw new GorTaskError(`system ${system}: no meeting has a graph of records to train on`);
  const steps: StepContext[] = [];
  for (const r of rows) {
    const graph = JSON.parse(r.result.text) as RecordsGraph;
    steps.push(await loadStep(ctx, ref, { ...r.payload, graph } as unknown as Record<string, unknown>, spec));
  }
  return steps;
}

// Trains one GoR model on the graphs of every meeting of the system in a worker thread (or reuses
// stored weights for the same inputs) and ranks each meeting's nodes for its global query
// (§5.5–5.7).
export async function trainSystem(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: GorStepPayload,
  spec: BenchmarkSpec,
): Promise<TrainResult> {
  const meetings = await builtGraphs(ctx, ref, payload.system, spec);
  const inputs = [];
  for (const s of meetings) inputs.push(await trainingGraph(s));
  const settings = meetings[0]!.settings;
  const model = { heads: 4, dropout: settings.dropout, seed: spec.seed };
  const training = { ...settings.train, seed: spec.seed };
  const graphs = inputs.map((i) => i.graph);
  const modelKey = trainingKey(graphs, { model, training, backend: 'wasm', version: 2 });
  const stored = await loadWeights(ctx.db, modelKey);
  const fit = await fitInWorker({
    backend: 'wasm',
    model,
    training,
    graphs,
    ...(stored ? { weights: stored.weights } : {}),
    rankFor: inputs.map((i) => i.globalQuery),
  });
  const report = stored?.training ?? fit.report!;
  if (!stored) await saveWeights(ctx.db, modelKey, fit.weights, report);
  ctx.logger.info('GoR model ready', {
    taskId: ref.id,
    graphs: graphs.length,
    reused: !!stored,
    seconds: report.seconds,
  });
  const k = settings.k;
  return {
    rankings: Object.fromEntries(
      meetings.map((s, i) => [s.meeting.documentId, fit.rankings[i]!.slice(0, k).map((r) => r.node)]),
    ),
    ranker: `gor(${inputs[0]!.embedder}, alpha=${training.alpha}${training.inBatchNegatives ? '' : ', no in-batch negatives'})`,
    training: {
      epochs: report.epochs,
      lossFirst: report.lossFirst,
      lossLast: report.lossLast,
      seconds: report.seconds,
    },
    graphs: graphs.length,
    reused: !!stored,
    modelKey,
    inferenceMs: fit.inferenceMs,
  };
}
