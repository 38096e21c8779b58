import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

// A client must send a request's headers within HEADERS_TIMEOUT_MS and the whole request within
// REQUEST_TIMEOUT_MS, or it gets 408 and the connection is closed; Node checks every
// CHECK_INTERVAL_MS (its default, 30 s, would let a slow client hold a connection that long).
export const HTTP_TIMEOUTS = {
  HEADERS_TIMEOUT_MS: 5_000,
  REQUEST_TIMEOUT_MS: 30_000,
  CHECK_INTERVAL_MS: 1_000,
} as const;

export const REQUEST_ID_HEADER = 'x-request-id';

// A caller's own id is kept when it is short and plain (it goes into log lines and headers).
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const requestIds = new WeakMap<IncomingMessage, string>();

// The id of an HTTP request: its x-request-id header when sane, else a new UUID.
export function requestIdOf(req: IncomingMessage): string {
  let id = requestIds.get(req);
  if (id === undefined) {
    const given = req.headers[REQUEST_ID_HEADER];
    id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    requestIds.set(req, id);
  }
  return id;
}

// Bounds how long a connection may take to send its request, and gives every response (errors
// of the body parser and unknown routes included) the request's id, before the app sees it.
export function configureHttpServer(server: Server): void {
  server.headersTimeout = HTTP_TIMEOUTS.HEADERS_TIMEOUT_MS;
  server.requestTimeout = HTTP_TIMEOUTS.REQUEST_TIMEOUT_MS;
  // Node reads it when the server starts listening (only its options are typed), so set it before.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    HTTP_TIMEOUTS.CHECK_INTERVAL_MS;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
  });
}
