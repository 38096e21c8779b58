// The embedded database's thread: one PGlite instance, answering the queries the main thread's
// PgliteSession posts, one at a time in arrival order (PGlite has one session).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import type { SessionReply, SessionRequest, WorkerOptions } from './pglite-protocol.js';
import { copyTemplate } from './template-copy.js';

const options = workerData as WorkerOptions;

// Booleans as TypeORM sends them (true, 'true', 1), as typeorm-pglite did before this thread.
function serializeBool(value: unknown): string {
  if (value === true || value === 'true' || value === 1) return 'TRUE';
  if (value === false || value === 'false' || value === 0) return 'FALSE';
  return String(value);
}

// Postgres sets up its shared memory at every start: at its defaults (128 MB of buffers, 100
// connections) PGlite.create took 0.98 s here, with these 0.58 s; one session needs no more.
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'max_connections=5'];
// 1 MB WAL segments instead of 16: a new home copies a 29 MB template instead of 39 MB.
const INITDB_PARAMS = ['--wal-segsize=1'];

async function open(): Promise<PGlite> {
  if (options.templatePath && options.dataDir) copyTemplate(options.templatePath, options.dataDir);
  return PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    startParams: START_PARAMS,
    initDbStartParams: INITDB_PARAMS,
    serializers: { [types.BOOL]: serializeBool },
  });
}

// A database error's fields (code, detail, constraint...) survive the thread boundary only as
// plain data; the session rebuilds an Error from them.
function plainError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const plain: Record<string, unknown> = { message: err.message, name: err.name, stack: err.stack };
  for (const [k, v] of Object.entries(err)) if (typeof v !== 'function') plain[k] = v;
  return plain;
}

async function answer(db: PGlite, req: SessionRequest): Promise<unknown> {
  switch (req.op) {
    case 'ready':
      return new Date(0); // lets the session see which realm's Date a clone gets
    case 'query':
      return db.query(req.sql, req.params);
    case 'exec': {
      // TypeORM expects the last statement's result from a multi-statement string.
      const results = await db.exec(req.sql);
      return results[results.length - 1] ?? { rows: [] };
    }
    case 'close':
      await db.close();
      return null;
  }
}

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs as a worker thread of PgliteSession');
const opened = open();
opened.catch(() => {}); // reported to each request below
let queue: Promise<unknown> = Promise.resolve();
port.on('message', (req: SessionRequest) => {
  queue = queue.then(async () => {
    let reply: SessionReply;
    try {
      reply = { id: req.id, ok: true, result: await answer(await opened, req) };
    } catch (err) {
      reply = { id: req.id, ok: false, error: plainError(err) };
    }
    try {
      port.postMessage(reply);
    } catch (err) {
      // A value the thread boundary cannot carry: that query fails, the session goes on.
      port.postMessage({ id: req.id, ok: false, error: { message: `cannot pass the answer back: ${err}` } });
    }
  });
});
