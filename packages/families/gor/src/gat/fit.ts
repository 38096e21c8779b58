import { DEFAULT_MODEL, GorModel, graphMask } from './model.js';
import { type GorBackend, tf, useBackend } from './tf.js';
import { type TrainingGraph, type TrainingReport, type TrainOptions, trainGor } from './train.js';

export type GorWeights = { shape: number[]; values: number[] }[];

// Every graph's nodes ranked for its query, by a model trained on the graphs (or given weights).
export interface FitRequest {
  backend: GorBackend;
  // Model seed (weight initialization); heads and dropout as METHODS.md §5.5.
  model: { heads: number; dropout: number; seed: number };
  training: Partial<TrainOptions>;
  graphs: TrainingGraph[];
  // Trained weights to reuse: no training then.
  weights?: GorWeights;
  // One query per graph (e.g. its document's global query) to rank the graph's nodes for.
  rankFor: Float32Array[];
}

export interface FitResult {
  weights: GorWeights;
  // Null when the weights were given.
  report: TrainingReport | null;
  // Per graph, node indices best first, with their scores (inner products with the learned
  // embeddings).
  rankings: { node: number; score: number }[][];
  // Mean per graph (one query each).
  inferenceMs: number;
}

function rankGraph(
  model: GorModel,
  g: TrainingGraph,
  query: Float32Array,
): { node: number; score: number }[] {
  const dim = query.length;
  const scores = tf.tidy(() => {
    const input = { features: tf.tensor2d(g.features, [g.nodes, dim]), mask: graphMask(g.nodes, g.edges) };
    return tf.matMul(model.embed(input), tf.tensor2d(query, [dim, 1])).dataSync();
  });
  return [...scores.keys()]
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .map((node) => ({ node, score: scores[node]! }));
}

// Trains (unless weights are given) and ranks each graph's nodes; runs on whichever thread calls
// it, so services call it through fitInWorker.
export async function fitAndRank(req: FitRequest): Promise<FitResult> {
  await useBackend(req.backend);
  if (req.graphs.length === 0 || req.rankFor.length !== req.graphs.length)
    throw new RangeError(`${req.graphs.length} graphs and ${req.rankFor.length} queries to rank them for`);
  const dim = req.rankFor[0]!.length;
  const model = new GorModel({ ...DEFAULT_MODEL, ...req.model, dim });
  try {
    let report: TrainingReport | null = null;
    if (req.weights) model.importWeights(req.weights);
    else report = trainGor(model, req.graphs, req.training);
    const started = performance.now();
    const rankings = req.graphs.map((g, i) => rankGraph(model, g, req.rankFor[i]!));
    const inferenceMs = (performance.now() - started) / req.graphs.length;
    return { weights: model.exportWeights(), report, rankings, inferenceMs };
  } finally {
    model.dispose();
  }
}
