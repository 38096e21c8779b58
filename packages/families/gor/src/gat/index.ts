export * from './fit.js';
export { fitInWorker } from './fit-in-worker.js';
export * from './gat.js';
export * from './losses.js';
export * from './model.js';
export * from './record-graph.js';
export * from './synthetic.js';
export { seededRandom, tf, useBackend } from './tf.js';
export * from './train.js';
