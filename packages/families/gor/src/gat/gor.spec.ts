import { describe, expect, it } from '@jest/globals';
import { gatLayer } from './gat.js';
import { infoNceLoss, pairwiseRankingLoss } from './losses.js';
import { GorModel, graphMask } from './model.js';
import { seededRandom, tf, useBackend } from './tf.js';

await useBackend();

const variable = (values: number[], shape: number[]) => tf.variable(tf.tensor(values, shape));
const close = (a: ArrayLike<number>, b: number[], digits = 5) => {
  expect(Array.from(a).map((x) => Number(x.toFixed(digits)))).toEqual(
    b.map((x) => Number(x.toFixed(digits))),
  );
};

describe('graph attention layer', () => {
  // x = [[1,0],[0,1],[1,1]], W = [[1,0],[0.5,1]]: z0 = [1,0], z1 = [0.5,1], z2 = [1.5,1].
  // Edges 0-1, 1-2. a_dst = [0.5,0.5]: d = [0.5, 0.75, 1.25].
  const x = tf.tensor2d([1, 0, 0, 1, 1, 1], [3, 2]);
  const mask = graphMask(3, [
    [0, 1],
    [1, 2],
  ]);
  const layer = (aSrc: number[]) => ({
    w: variable([1, 0, 0.5, 1], [1, 2, 2]),
    aSrc: variable(aSrc, [1, 2]),
    aDst: variable([0.5, 0.5], [1, 2]),
  });
  it('attends over in-neighbours only, with hand-computed weights', () => {
    // a_src = [1,-1]: s = [1, -0.5, 0.5]; node 1: e10 = 1.75, e12 = 1.25 -> softmax 0.622459, 0.377541.
    close(gatLayer(x, mask, layer([1, -1])).dataSync(), [0.5, 1, 1.1887703, 0.3775407, 0.5, 1]);
    // a_src = [-2,0]: e10 = LeakyReLU(-1.25) = -0.25, e12 = LeakyReLU(-2.25) = -0.45 -> 0.549834, 0.450166.
    close(gatLayer(x, mask, layer([-2, 0])).dataSync(), [0.5, 1, 1.2250831, 0.450166, 0.5, 1]);
  });
  it('gives an isolated node a self-loop', () => {
    expect(Array.from(graphMask(3, [[0, 1]]).dataSync())).toEqual([0, 1, 0, 1, 0, 0, 0, 0, 1]);
  });
});

// Central differences of a scalar function of one tensor, against its autograd gradient:
// relative error ||g_fd - g|| / (||g_fd|| + ||g||).
function gradientError(f: (t: tf.Tensor) => tf.Scalar, at: tf.Tensor, eps = 5e-3): number {
  const analytic = tf.grad(f)(at).dataSync();
  const base = at.dataSync();
  const numeric = Array.from(base, (_, i) => {
    const shifted = (d: number) => {
      const v = Float32Array.from(base);
      v[i]! += d;
      return f(tf.tensor(v, at.shape)).dataSync()[0]!;
    };
    return (shifted(eps) - shifted(-eps)) / (2 * eps);
  });
  let diff = 0;
  let norm = 0;
  numeric.forEach((n, i) => {
    diff += (n - analytic[i]!) ** 2;
    norm += n * n + analytic[i]! ** 2;
  });
  return Math.sqrt(diff) / Math.sqrt(norm);
}

describe('GoR losses', () => {
  const rnd = seededRandom(3);
  const random = (n: number, m: number) =>
    tf.tensor2d(
      Float32Array.from({ length: n * m }, () => rnd() * 2 - 1),
      [n, m],
    );
  const queries = random(3, 4);
  const nodes = random(6, 4);
  // Distinct labels: every ordered pair of a query's nodes counts.
  const labels = random(3, 6);

  it('match hand-computed values', () => {
    const q = tf.tensor2d([1, 0], [1, 2]);
    const h = tf.tensor2d([1, 0, 0, 1], [2, 2]);
    // -log(e / (e + 1)) = log(1 + e^-1); softplus(0 - 1) is the same number.
    expect(infoNceLoss(q, h, [0], 1).dataSync()[0]).toBeCloseTo(Math.log(1 + Math.exp(-1)), 6);
    expect(pairwiseRankingLoss(q, h, tf.tensor2d([1, 0], [1, 2]), 1).dataSync()[0]).toBeCloseTo(
      Math.log(1 + Math.exp(-1)),
      6,
    );
    // Without in-batch negatives only the allowed nodes enter the denominator.
    const allowed = tf.tensor2d([1, 0], [1, 2]);
    expect(infoNceLoss(q, h, [0], 1, allowed).dataSync()[0]).toBeCloseTo(0, 6);
  });

  it('have gradients that agree with finite differences (relative error < 1e-3)', () => {
    const errors = [
      gradientError((h) => infoNceLoss(queries, h as tf.Tensor2D, [1, 3, 5], 0.5), nodes),
      gradientError((q) => infoNceLoss(q as tf.Tensor2D, nodes, [1, 3, 5], 0.5), queries),
      gradientError((h) => pairwiseRankingLoss(queries, h as tf.Tensor2D, labels, 0.5), nodes),
      gradientError((q) => pairwiseRankingLoss(q as tf.Tensor2D, nodes, labels, 0.5), queries),
    ];
    for (const e of errors) expect(e).toBeLessThan(1e-3);
  });
});

describe('GoR model', () => {
  const graph = () => ({
    features: tf.tensor2d(
      Float32Array.from({ length: 5 * 8 }, (_, i) => Math.sin(i)),
      [5, 8],
    ),
    mask: graphMask(5, [
      [0, 1],
      [1, 2],
      [3, 4],
    ]),
  });
  it('keeps the embedding size through both layers and ranks the same for the same seed', () => {
    const a = new GorModel({ dim: 8, heads: 4, dropout: 0, seed: 11 });
    const b = new GorModel({ dim: 8, heads: 4, dropout: 0, seed: 11 });
    expect(a.embed(graph()).shape).toEqual([5, 8]);
    const q = Float32Array.from({ length: 8 }, (_, i) => Math.cos(i));
    expect(a.rank(graph(), q)).toEqual(b.rank(graph(), q));
    // Stored weights give another model the same scores.
    const c = new GorModel({ dim: 8, heads: 4, dropout: 0, seed: 99 });
    c.importWeights(a.exportWeights());
    expect(Array.from(c.embed(graph()).dataSync())).toEqual(Array.from(a.embed(graph()).dataSync()));
  });
});
