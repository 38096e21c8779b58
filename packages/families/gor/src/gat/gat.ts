import { glorot, tf } from './tf.js';

export interface GatLayerWeights {
  // [heads, in, out]: each head's projection.
  w: tf.Variable;
  // [heads, out]: attention vectors for the source (neighbour) and destination (updated) node.
  aSrc: tf.Variable;
  aDst: tf.Variable;
}

export function initGatLayer(
  heads: number,
  inDim: number,
  outDim: number,
  rnd: () => number,
): GatLayerWeights {
  return {
    w: glorot([heads, inDim, outDim], inDim, outDim, rnd),
    aSrc: glorot([heads, outDim], outDim, 1, rnd),
    aDst: glorot([heads, outDim], outDim, 1, rnd),
  };
}

// One graph attention layer (Veličković et al., 2018): per head, z = x W;
// e_ij = LeakyReLU(a_dst·z_i + a_src·z_j, 0.2) for each edge j -> i; attention = softmax of e over
// i's in-neighbours (`mask[i][j]` = 1); out_i = sum_j attention_ij z_j. Returns [heads, n, out].
export function gatLayer(x: tf.Tensor2D, mask: tf.Tensor2D, p: GatLayerWeights): tf.Tensor3D {
  return tf.tidy(() => {
    const heads = p.w.shape[0]!;
    const z = tf.matMul(tf.tile(tf.expandDims(x, 0), [heads, 1, 1]), p.w) as tf.Tensor3D;
    const src = tf.sum(tf.mul(z, tf.expandDims(p.aSrc, 1)), 2);
    const dst = tf.sum(tf.mul(z, tf.expandDims(p.aDst, 1)), 2);
    const e = tf.leakyRelu(tf.add(tf.expandDims(dst, 2), tf.expandDims(src, 1)), 0.2);
    // Non-edges get -1e9 before the softmax: their weight underflows to exactly 0.
    const masked = tf.where(
      tf.tile(tf.cast(tf.expandDims(mask, 0), 'bool'), [heads, 1, 1]),
      e,
      tf.fill(e.shape, -1e9),
    );
    return tf.matMul(tf.softmax(masked), z) as tf.Tensor3D;
  });
}
