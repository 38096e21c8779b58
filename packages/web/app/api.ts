import createClient from 'openapi-fetch';
import type { JsonOf, JsonPath } from './api-schema';
import type { paths } from './api-schema.gen';
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
function errorOf(res: Response, body: unknown): ApiError {
  let message = `HTTP ${res.status} ${res.statusText}`.trim();
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string')
    message = body.error;
  if (res.status === 401) keyRequired(message);
  return new ApiError(message, res.status);
}

const unreachable = (e: unknown) =>
  new ApiError(`cannot reach the server (${e instanceof Error ? e.message : String(e)})`, 0);

async function request(path: string, accept: string, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(API_BASE + path, { headers: headers(accept), signal });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw unreachable(e);
  }
  if (!res.ok) throw errorOf(res, await res.json().catch(() => null));
  return res;
}

// Paths and parameters are checked against the OpenAPI document's (fetch is looked up per call).
const client = createClient<paths>({ fetch: (req) => fetch(req) });
export type ParamsOf<P extends JsonPath> = paths[P]['get']['parameters'];
type Answer = { data?: unknown; error?: unknown; response: Response };
// One signature for every path: the generic caller's types already come from `paths`.
const get = client.GET as unknown as (
  path: string,
  init: RequestInit & { params: unknown },
) => Promise<Answer>;

export async function getJson<P extends JsonPath>(
  path: P,
  params: ParamsOf<P>,
  signal?: AbortSignal,
): Promise<JsonOf<P>> {
  let answer: Answer;
  try {
    answer = await get(path, { params, headers: headers('application/json'), ...(signal ? { signal } : {}) });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw unreachable(e);
  }
  if (!answer.response.ok) throw errorOf(answer.response, answer.error);
  return answer.data as JsonOf<P>;
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
