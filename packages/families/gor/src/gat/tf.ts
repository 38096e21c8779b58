// The TensorFlow.js bundle registers every op's gradient (autograd); tfjs-node is not used: it
// downloads libtensorflow at install (STACK.md).
import { mulberry32 } from '@precis/metrics';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export { tf };

export type GorBackend = 'wasm' | 'cpu';
let ready: Promise<void> | undefined;

// Selects the backend once per process, before any op. WebAssembly by default: 150 epochs on a
// 100-node, 64-dimension graph took 13 s there and 47 s on the plain JS cpu backend.
export function useBackend(name: GorBackend = 'wasm'): Promise<void> {
  ready ??= tf.setBackend(name).then((ok) => {
    if (!ok) throw new Error(`TensorFlow.js: the ${name} backend is not available`);
  });
  return ready;
}

// Seeded uniform numbers (metrics' mulberry32): weight initialization and shuffles are the same
// on every run with the same seed, so trained weights and the numbers they give are reproducible.
export const seededRandom = (seed: number): (() => number) => mulberry32(seed);

// Glorot (Xavier) uniform values for a fan-in x fan-out weight, from the seeded generator.
export function glorot(shape: number[], fanIn: number, fanOut: number, rnd: () => number): tf.Variable {
  const limit = Math.sqrt(6 / (fanIn + fanOut));
  const size = shape.reduce((a, b) => a * b, 1);
  const values = Float32Array.from({ length: size }, () => (rnd() * 2 - 1) * limit);
  return tf.variable(tf.tensor(values, shape));
}
