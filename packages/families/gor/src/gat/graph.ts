// The family imports this file, not index.ts: what a caller needs without TensorFlow.js on its own thread
// (loading it took 0.36 s of every `precis` command's start). Training runs in a worker thread.
export { fitInWorker } from './fit-in-worker.js';
export { RecordGraph } from './record-graph.js';
