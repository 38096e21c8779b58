export * from './gat.js';
export * from './losses.js';
export * from './model.js';
export * from './record-graph.js';
export * from './synthetic.js';
export { seededRandom, tf, useBackend } from './tf.js';
export * from './train.js';
