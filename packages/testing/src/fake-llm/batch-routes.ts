// The Files and Batch routes of the fake server (/v1/files..., /v1/batches...).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BatchApiError, type FileStore } from './batch-files.js';
import type { BatchDesk } from './batches.js';

interface Responder {
  sendJson(res: ServerResponse, status: number, body: unknown): void;
  sendError(res: ServerResponse, status: number, message: string, type: string): void;
}

export const isBatchRoute = (path: string) => /^\/v1\/(files|batches)(\/|$)/.test(path);

export function batchRoute(
  out: Responder,
  files: FileStore,
  desk: BatchDesk,
  req: IncomingMessage,
  res: ServerResponse,
  call: { path: string; body: Record<string, unknown>; raw: string },
): void {
  try {
    const reply = route(files, desk, req, call);
    if (reply === undefined) {
      out.sendError(res, 404, `Unknown route ${req.method} ${call.path}`, 'invalid_request_error');
      return;
    }
    if (typeof reply === 'string') {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': Buffer.byteLength(reply),
      });
      res.end(reply);
      return;
    }
    out.sendJson(res, 200, reply);
  } catch (err) {
    if (!(err instanceof BatchApiError)) throw err;
    out.sendError(res, err.status, err.message, 'invalid_request_error');
  }
}

// The answer (JSON, or a file's text), or undefined for an unknown route.
function route(
  files: FileStore,
  desk: BatchDesk,
  req: IncomingMessage,
  { path, body, raw }: { path: string; body: Record<string, unknown>; raw: string },
): unknown {
  const m = req.method;
  if (m === 'POST' && path === '/v1/files') return files.upload(req.headers['content-type'] ?? '', raw);
  if (m === 'POST' && path === '/v1/batches') return desk.create(body);
  if (m === 'GET' && path === '/v1/batches') {
    const q = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    return desk.list(q.get('after'), Number(q.get('limit') ?? 20));
  }
  const file = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
  if (file && m === 'GET') return file[2] ? files.text(file[1]!) : files.get(file[1]!);
  if (file && m === 'DELETE' && !file[2]) return files.delete(file[1]!);
  const batch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  if (batch && m === 'GET' && !batch[2]) return desk.get(batch[1]!);
  if (batch && m === 'POST' && batch[2]) return desk.cancel(batch[1]!);
  return undefined;
}
