import { infoNceLoss, pairwiseRankingLoss } from './losses.js';
import { type GorModel, graphMask } from './model.js';
import { seededRandom, tf } from './tf.js';

// A graph with its self-supervised queries: each query's embedding and its label per node
// (BERTScore of the node's text against the query's source chunk; the best node is the positive).
export interface TrainingGraph {
  nodes: number;
  features: Float32Array;
  edges: [number, number][];
  queries: { embedding: Float32Array; labels: number[] }[];
}

export interface TrainOptions {
  epochs: number;
  // Graphs per optimizer step.
  batchSize: number;
  learningRate: number;
  // Weight of the pairwise ranking loss (0 = InfoNCE only).
  alpha: number;
  tau: number;
  inBatchNegatives: boolean;
  seed: number;
}

export const DEFAULT_TRAINING: TrainOptions = {
  epochs: 150,
  batchSize: 32,
  learningRate: 1e-3,
  alpha: 0.5,
  tau: 0.1,
  inBatchNegatives: true,
  seed: 7,
};

export interface TrainingReport {
  epochs: number;
  steps: number;
  // Mean loss of the first and last epoch.
  lossFirst: number;
  lossLast: number;
  seconds: number;
}

// Adam (Kingma and Ba) with the learning rate decayed linearly to 0 over all steps (METHODS §5.6).
class Adam {
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private t = 0;

  constructor(
    private readonly vars: tf.Variable[],
    private readonly lr: number,
    private readonly totalSteps: number,
  ) {
    this.m = vars.map((x) => tf.variable(tf.zerosLike(x)));
    this.v = vars.map((x) => tf.variable(tf.zerosLike(x)));
  }

  step(grads: Record<string, tf.Tensor>): void {
    this.t++;
    const lr = this.lr * (1 - (this.t - 1) / this.totalSteps);
    tf.tidy(() => {
      this.vars.forEach((x, i) => {
        const g = grads[x.name]!;
        this.m[i]!.assign(tf.add(tf.mul(this.m[i]!, 0.9), tf.mul(g, 0.1)));
        this.v[i]!.assign(tf.add(tf.mul(this.v[i]!, 0.999), tf.mul(tf.square(g), 0.001)));
        const mHat = tf.div(this.m[i]!, 1 - 0.9 ** this.t);
        const vHat = tf.div(this.v[i]!, 1 - 0.999 ** this.t);
        x.assign(tf.sub(x, tf.mul(lr, tf.div(mHat, tf.add(tf.sqrt(vHat), 1e-8)))));
      });
    });
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }
}

// Loss of one batch of graphs: InfoNCE over every node of the batch (or only the query's own
// graph without in-batch negatives) plus alpha x the pairwise ranking loss within each graph.
function batchLoss(
  model: GorModel,
  batch: readonly PreparedGraph[],
  opts: TrainOptions,
  dropoutSeed: number,
): tf.Scalar {
  const embedded = batch.map((b, i) => model.embed(b, dropoutSeed + 2 * i));
  const nodes = tf.concat(embedded, 0) as tf.Tensor2D;
  const total = nodes.shape[0];
  const positives: number[] = [];
  const allowed: number[] = [];
  let offset = 0;
  for (const { graph } of batch) {
    for (const q of graph.queries) {
      positives.push(offset + q.labels.indexOf(Math.max(...q.labels)));
      for (let j = 0; j < total; j++) allowed.push(j >= offset && j < offset + graph.nodes ? 1 : 0);
    }
    offset += graph.nodes;
  }
  const qs = tf.concat(
    batch.map((b) => b.queries),
    0,
  ) as tf.Tensor2D;
  const mask = opts.inBatchNegatives ? undefined : tf.tensor2d(allowed, [positives.length, total]);
  let loss = infoNceLoss(qs, nodes, positives, opts.tau, mask);
  if (opts.alpha > 0) {
    // Each graph's mean over its queries, weighted back to a mean over the batch's queries.
    const ranking = batch.map((b, i) =>
      tf.mul(
        pairwiseRankingLoss(b.queries, embedded[i]!, b.labels, opts.tau),
        b.graph.queries.length / positives.length,
      ),
    );
    loss = tf.add(loss, tf.mul(opts.alpha, tf.addN(ranking)));
  }
  return loss as tf.Scalar;
}

interface PreparedGraph {
  graph: TrainingGraph;
  features: tf.Tensor2D;
  mask: tf.Tensor2D;
  queries: tf.Tensor2D;
  labels: tf.Tensor2D;
}

function prepare(g: TrainingGraph): PreparedGraph {
  const dim = g.features.length / g.nodes;
  return {
    graph: g,
    features: tf.tensor2d(g.features, [g.nodes, dim]),
    mask: graphMask(g.nodes, g.edges),
    queries: tf.tensor2d(Float32Array.from(g.queries.flatMap((q) => Array.from(q.embedding))), [
      g.queries.length,
      dim,
    ]),
    labels: tf.tensor2d(
      g.queries.flatMap((q) => q.labels),
      [g.queries.length, g.nodes],
    ),
  };
}

// Trains the model in place on the graphs (shuffled each epoch with the seed); onEpoch sees each
// epoch's mean loss. Deterministic for the same graphs, options and model seed.
export function trainGor(
  model: GorModel,
  graphs: readonly TrainingGraph[],
  options: Partial<TrainOptions> = {},
  onEpoch?: (epoch: number, loss: number) => void,
): TrainingReport {
  const opts = { ...DEFAULT_TRAINING, ...options };
  const started = performance.now();
  const prepared = graphs.map(prepare);
  const perEpoch = Math.ceil(graphs.length / opts.batchSize);
  const adam = new Adam(model.variables, opts.learningRate, opts.epochs * perEpoch);
  const rnd = seededRandom(opts.seed);
  const losses: number[] = [];
  try {
    for (let epoch = 0; epoch < opts.epochs; epoch++) {
      const order = [...prepared.keys()]
        .map((i) => ({ i, r: rnd() }))
        .sort((a, b) => a.r - b.r)
        .map((x) => x.i);
      let sum = 0;
      for (let s = 0; s < perEpoch; s++) {
        const batch = order.slice(s * opts.batchSize, (s + 1) * opts.batchSize).map((i) => prepared[i]!);
        const { value, grads } = tf.variableGrads(
          () => batchLoss(model, batch, opts, opts.seed + epoch * 1000 + s * 64),
          model.variables,
        );
        sum += value.dataSync()[0]!;
        adam.step(grads);
        value.dispose();
        tf.dispose(Object.values(grads));
      }
      losses.push(sum / perEpoch);
      onEpoch?.(epoch + 1, losses.at(-1)!);
    }
  } finally {
    adam.dispose();
    for (const p of prepared) tf.dispose([p.mask, p.features, p.queries, p.labels]);
  }
  return {
    epochs: opts.epochs,
    steps: opts.epochs * perEpoch,
    lossFirst: losses[0] ?? Number.NaN,
    lossLast: losses.at(-1) ?? Number.NaN,
    seconds: (performance.now() - started) / 1000,
  };
}
