import { type GatLayerWeights, gatLayer, initGatLayer } from './gat.js';
import { seededRandom, tf } from './tf.js';

export interface GorModelOptions {
  // Embedding size (node and query features); hidden size = this (METHODS.md §5.5).
  dim: number;
  heads: number;
  // Feature dropout while training (0–0.2).
  dropout: number;
  seed: number;
}

export const DEFAULT_MODEL: Omit<GorModelOptions, 'dim'> = { heads: 4, dropout: 0, seed: 7 };

// One graph of records: node features [n, dim] and its edges as an in-neighbour mask [n, n]
// (mask[i][j] = 1 when j -> i; an isolated node has a self-loop).
export interface GraphInput {
  features: tf.Tensor2D;
  mask: tf.Tensor2D;
}

// GoR's 2-layer, multi-head GAT: every head keeps the embedding size; a layer's heads are
// concatenated (ELU) as the next layer's input, and its node output is the mean over heads; the
// node's embedding is the elementwise max over the layers (jumping knowledge, as the reference
// code does), so one-hop context reaches the result as well as two-hop context.
export class GorModel {
  readonly layers: [GatLayerWeights, GatLayerWeights];

  constructor(readonly options: GorModelOptions) {
    const { dim, heads } = options;
    const rnd = seededRandom(options.seed);
    this.layers = [initGatLayer(heads, dim, dim, rnd), initGatLayer(heads, heads * dim, dim, rnd)];
  }

  get variables(): tf.Variable[] {
    return this.layers.flatMap((l) => [l.w, l.aSrc, l.aDst]);
  }

  // Node embeddings [n, dim]; `dropoutSeed` given = training (seeded feature dropout).
  embed(g: GraphInput, dropoutSeed?: number): tf.Tensor2D {
    return tf.tidy(() => {
      const drop = (x: tf.Tensor2D, k: number): tf.Tensor2D =>
        dropoutSeed === undefined || this.options.dropout === 0
          ? x
          : (tf.dropout(x, this.options.dropout, undefined, dropoutSeed + k) as tf.Tensor2D);
      const n = g.features.shape[0];
      const heads = this.options.heads;
      // [heads, n, dim] -> the ELU of the heads side by side, [n, heads * dim].
      const concat = (h: tf.Tensor3D) =>
        tf.elu(tf.reshape(tf.transpose(h, [1, 0, 2]), [n, heads * this.options.dim])) as tf.Tensor2D;
      const h1 = concat(gatLayer(drop(g.features, 0), g.mask, this.layers[0]));
      const h2 = concat(gatLayer(drop(h1, 1), g.mask, this.layers[1]));
      const headMean = (h: tf.Tensor2D) => tf.mean(tf.reshape(h, [n, heads, this.options.dim]), 1);
      return tf.maximum(headMean(h1), headMean(h2)) as tf.Tensor2D;
    });
  }

  // Node scores for a query embedding (inner products), best first as node indices.
  rank(g: GraphInput, query: Float32Array): number[] {
    const scores = tf.tidy(() => tf.matMul(this.embed(g), tf.tensor2d(query, [query.length, 1])).dataSync());
    return [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b);
  }

  // Weights as plain arrays (stored with a run and reused by a re-run with the same inputs).
  exportWeights(): { shape: number[]; values: number[] }[] {
    return this.variables.map((v) => ({ shape: v.shape, values: Array.from(v.dataSync()) }));
  }

  importWeights(weights: readonly { shape: number[]; values: number[] }[]): void {
    const vars = this.variables;
    if (weights.length !== vars.length)
      throw new Error(`expected ${vars.length} weight tensors, got ${weights.length}`);
    weights.forEach((w, i) => {
      vars[i]!.assign(tf.tensor(w.values, w.shape));
    });
  }

  dispose(): void {
    for (const v of this.variables) v.dispose();
  }
}

// The graph's mask from its edge list (undirected: each edge both ways), self-loops on the
// nodes with no edge.
export function graphMask(nodes: number, edges: readonly [number, number][]): tf.Tensor2D {
  const m = new Float32Array(nodes * nodes);
  for (const [a, b] of edges) {
    m[a * nodes + b] = 1;
    m[b * nodes + a] = 1;
  }
  for (let i = 0; i < nodes; i++) {
    let any = false;
    for (let j = 0; j < nodes && !any; j++) any = m[i * nodes + j] === 1;
    if (!any) m[i * nodes + i] = 1;
  }
  return tf.tensor2d(m, [nodes, nodes]);
}
