import { keyRequired, storedKey } from './auth';
import { createSseParser, type SseEvent } from './sse';

// Same origin as the page (the gateway serves both).
export const API_BASE = '/api/v1';

export class ApiError extends Error {
  // 0 when the request never got an answer (network error).
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';

export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError(e instanceof Error ? e.message : String(e), 0);
}

function headers(accept: string): Headers {
  const h = new Headers({ Accept: accept });
  const key = storedKey();
  if (key) h.set('Authorization', `Bearer ${key}`);
  return h;
}

// The server's {"error": "..."} text, or the status line when the body is not that.
async function errorOf(res: Response): Promise<ApiError> {
  let message = `HTTP ${res.status} ${res.statusText}`.trim();
  try {
    const body: unknown = await res.json();
    if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string')
      message = body.error;
  } catch {
    // Not JSON: keep the status line.
  }
  if (res.status === 401) keyRequired(message);
  return new ApiError(message, res.status);
}

async function request(path: string, accept: string, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(API_BASE + path, { headers: headers(accept), signal });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new ApiError(`cannot reach the server (${e instanceof Error ? e.message : String(e)})`, 0);
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await request(path, 'application/json', signal);
  return (await res.json()) as T;
}

// Reads a server-sent event stream until the server closes it.
export async function readEvents(
  path: string,
  onEvent: (e: SseEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await request(path, 'text/event-stream', signal);
  if (!res.body) throw new ApiError('the event stream has no body', res.status);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createSseParser(onEvent);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
}

// Path segments and query values from the page's own routes.
export const enc = encodeURIComponent;
