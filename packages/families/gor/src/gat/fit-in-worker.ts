import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FitRequest, FitResult } from './fit.js';

// The built worker script. Under Jest this module runs from src/gat/, and a worker thread cannot
// run TypeScript, so it takes the build's copy in dist/gat/ (`npm run build` first).
function workerScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = basename(dirname(here)) === 'src' ? join(here, '..', '..', 'dist', basename(here)) : here;
  const file = join(built, 'train-worker.js');
  if (!existsSync(file)) throw new Error(`GoR worker script ${file} is missing: run npm run build first`);
  return file;
}

// Training takes seconds of CPU: it runs in a worker thread, so a service's event loop keeps
// answering (health checks, acks, other tasks) meanwhile. One thread per call, ended after it.
export function fitInWorker(req: FitRequest): Promise<FitResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript());
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (msg: { ok: true; result: FitResult } | { ok: false; error: string }) =>
      finish(() => (msg.ok ? resolve(msg.result) : reject(new Error(`GoR training failed: ${msg.error}`)))),
    );
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) =>
      finish(() => reject(new Error(`GoR training worker exited with code ${code} before answering`))),
    );
    worker.postMessage(req);
  });
}
