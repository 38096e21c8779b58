import { parentPort } from 'node:worker_threads';
import { type FitRequest, fitAndRank } from './fit.js';

// The worker thread of fitInWorker: one request per message, answered in order.
parentPort?.on('message', (req: FitRequest) => {
  fitAndRank(req).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (err: Error) => parentPort!.postMessage({ ok: false, error: err.stack ?? err.message }),
  );
});
