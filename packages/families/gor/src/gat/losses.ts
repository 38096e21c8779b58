import { tf } from './tf.js';

// InfoNCE (METHODS.md §5.6): for query b, -log(exp(q_b·h_pos / tau) / sum over every node of the
// batch of exp(q_b·h / tau)); nodes of other graphs are the in-batch negatives. Mean over queries.
// `allowed[b][j]` = 0 leaves node j out of query b's denominator (no in-batch negatives).
export function infoNceLoss(
  queries: tf.Tensor2D,
  nodes: tf.Tensor2D,
  positives: readonly number[],
  tau: number,
  allowed?: tf.Tensor2D,
): tf.Scalar {
  return tf.tidy(() => {
    let s = tf.div(tf.matMul(queries, nodes, false, true), tau) as tf.Tensor2D;
    if (allowed) s = tf.where(tf.cast(allowed, 'bool'), s, tf.fill(s.shape, -1e9)) as tf.Tensor2D;
    const pos = tf.sum(tf.mul(s, tf.oneHot(tf.tensor1d(positives as number[], 'int32'), nodes.shape[0])), 1);
    return tf.mean(tf.sub(tf.logSumExp(s, 1), pos)) as tf.Scalar;
  });
}

// Pairwise ranking loss (METHODS.md §5.6): over the node pairs of each query's graph with i
// ranked above j (label_i > label_j), log(1 + s(q, h_j) / s(q, h_i)) = softplus((q·h_j - q·h_i) /
// tau), averaged over the pairs as the reference code does (a sum would grow with the square of
// the graph size and drown InfoNCE: ~1,800 vs ~6 on a 100-node graph). Dense over [q, n, n].
export function pairwiseRankingLoss(
  queries: tf.Tensor2D,
  nodes: tf.Tensor2D,
  labels: tf.Tensor2D,
  tau: number,
): tf.Scalar {
  return tf.tidy(() => {
    const s = tf.div(tf.matMul(queries, nodes, false, true), tau);
    // d[q][i][j] = s_j - s_i; above[q][i][j] = label_i > label_j.
    const d = tf.sub(tf.expandDims(s, 1), tf.expandDims(s, 2));
    const above = tf.cast(tf.greater(tf.expandDims(labels, 2), tf.expandDims(labels, 1)), 'float32');
    return tf.div(tf.sum(tf.mul(above, tf.softplus(d))), tf.maximum(tf.sum(above), 1)) as tf.Scalar;
  });
}
