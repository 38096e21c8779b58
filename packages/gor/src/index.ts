export * from './gat.js';
export * from './losses.js';
export * from './model.js';
export { seededRandom, tf, useCpuBackend } from './tf.js';
