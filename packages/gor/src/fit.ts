import { DEFAULT_MODEL, GorModel, graphMask } from './model.js';
import { type GorBackend, tf, useBackend } from './tf.js';
import { type TrainingGraph, type TrainingReport, type TrainOptions, trainGor } from './train.js';

export type GorWeights = { shape: number[]; values: number[] }[];

// One graph to rank for a query, with a model trained on `graphs` (or given as weights).
export interface FitRequest {
  backend: GorBackend;
  // Model seed (weight initialization); heads and dropout as METHODS.md §5.5.
  model: { heads: number; dropout: number; seed: number };
  training: Partial<TrainOptions>;
  graphs: TrainingGraph[];
  // Trained weights to reuse: no training then.
  weights?: GorWeights;
  // The graph whose nodes are ranked, and the query (the global one) it is ranked for.
  rank: { graph: number; query: Float32Array };
}

export interface FitResult {
  weights: GorWeights;
  // Null when the weights were given.
  report: TrainingReport | null;
  // Node indices best first, with their scores (inner products with the learned embeddings).
  ranking: { node: number; score: number }[];
  inferenceMs: number;
}

// Trains (unless weights are given) and ranks one graph's nodes; runs on whichever thread calls
// it, so services call it through fitInWorker.
export async function fitAndRank(req: FitRequest): Promise<FitResult> {
  await useBackend(req.backend);
  const target = req.graphs[req.rank.graph];
  if (!target) throw new RangeError(`graph ${req.rank.graph} of ${req.graphs.length} to rank`);
  const dim = req.rank.query.length;
  const model = new GorModel({ ...DEFAULT_MODEL, ...req.model, dim });
  try {
    let report: TrainingReport | null = null;
    if (req.weights) model.importWeights(req.weights);
    else report = trainGor(model, req.graphs, req.training);
    const started = performance.now();
    const scores = tf.tidy(() => {
      const input = {
        features: tf.tensor2d(target.features, [target.nodes, dim]),
        mask: graphMask(target.nodes, target.edges),
      };
      return tf.matMul(model.embed(input), tf.tensor2d(req.rank.query, [dim, 1])).dataSync();
    });
    const ranking = [...scores.keys()]
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .map((node) => ({ node, score: scores[node]! }));
    return { weights: model.exportWeights(), report, ranking, inferenceMs: performance.now() - started };
  } finally {
    model.dispose();
  }
}
