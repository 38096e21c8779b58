import {
  GorModel,
  graphMask,
  syntheticGraphs,
  type TrainingGraph,
  tf,
  trainGor,
  useBackend,
} from '@precis/family-gor/gat';

// GoR's model on TensorFlow.js (wasm backend unless --backend cpu): 150 epochs on one 100-node
// graph with 64-dimensional features and 30 queries (wall and CPU seconds), per-query inference
// time, and hit@1 on the synthetic task (held-out graphs) of raw embeddings vs the trained model.
// Args: --backend wasm|cpu --epochs <n> (default 150).

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

function hitAt1(
  graphs: readonly TrainingGraph[],
  rank: (g: TrainingGraph, q: Float32Array) => number[],
): number {
  let hits = 0;
  let total = 0;
  for (const g of graphs)
    for (const q of g.queries) {
      total++;
      if (rank(g, q.embedding)[0] === q.labels.indexOf(Math.max(...q.labels))) hits++;
    }
  return hits / total;
}

const rawRank = (g: TrainingGraph, q: Float32Array) => {
  const dim = q.length;
  const s = Array.from({ length: g.nodes }, (_, i) =>
    q.reduce((a, x, d) => a + x * g.features[i * dim + d]!, 0),
  );
  return [...s.keys()].sort((a, b) => s[b]! - s[a]! || a - b);
};

function modelRank(model: GorModel, dim: number) {
  return (g: TrainingGraph, q: Float32Array) =>
    tf.tidy(() =>
      model.rank({ features: tf.tensor2d(g.features, [g.nodes, dim]), mask: graphMask(g.nodes, g.edges) }, q),
    );
}

function trainingFigures(epochs: number) {
  const graph = syntheticGraphs(1, { chunks: 70, dim: 64, queries: 30, retrieved: 6, seed: 1 });
  const model = new GorModel({ dim: 64, heads: 4, dropout: 0, seed: 5 });
  const cpu = process.cpuUsage();
  const report = trainGor(model, graph, { epochs });
  const used = process.cpuUsage(cpu);
  const rank = modelRank(model, 64);
  const q = graph[0]!.queries[0]!.embedding;
  rank(graph[0]!, q);
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) rank(graph[0]!, q);
  const inferenceMs = (performance.now() - t0) / 50;
  model.dispose();
  return { report, cpuSeconds: (used.user + used.system) / 1e6, inferenceMs };
}

function syntheticHits() {
  const opts = { chunks: 20, dim: 16, queries: 8, retrieved: 3 };
  const train = syntheticGraphs(128, { ...opts, seed: 1 });
  const test = syntheticGraphs(16, { ...opts, seed: 2 });
  const model = new GorModel({ dim: 16, heads: 4, dropout: 0, seed: 5 });
  const report = trainGor(model, train, {
    epochs: 150,
    learningRate: 0.03,
    tau: 0.5,
    alpha: 0.5,
    batchSize: 32,
  });
  const hits = {
    raw: hitAt1(test, rawRank),
    trained: hitAt1(test, modelRank(model, 16)),
    seconds: report.seconds,
  };
  model.dispose();
  return hits;
}

export async function run(args: string[]) {
  const backend = (arg(args, 'backend') ?? 'wasm') as 'wasm' | 'cpu';
  await useBackend(backend);
  const epochs = Number(arg(args, 'epochs') ?? 150);
  const t = trainingFigures(epochs);
  const hits = syntheticHits();
  return {
    name: 'gor-train',
    description: `GoR model on TensorFlow.js (${backend}): ${epochs} epochs on a 100-node graph (64 dims, 30 queries, alpha 0.5), inference per query, synthetic hit@1 (16 held-out graphs x 8 queries; 128 training graphs, 150 epochs, lr 0.03, tau 0.5, alpha 0.5)`,
    metrics: {
      train_wall_s: Math.round(t.report.seconds * 10) / 10,
      train_cpu_s: Math.round(t.cpuSeconds * 10) / 10,
      loss_first: Math.round(t.report.lossFirst * 10) / 10,
      loss_last: Math.round(t.report.lossLast * 10) / 10,
      inference_ms_per_query: Math.round(t.inferenceMs * 100) / 100,
      synthetic_hit1_raw: hits.raw,
      synthetic_hit1_trained: hits.trained,
      synthetic_train_s: Math.round(hits.seconds),
    },
  };
}
