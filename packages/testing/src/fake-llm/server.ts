import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FaultPlan } from './faults.js';
import { ReplyBook } from './replies.js';
import { BadRequest, chatResponse, embeddingResponse, parseChat } from './responses.js';
import { SlotQueue } from './slots.js';
import { StatsBook } from './stats.js';
import { countChatPromptTokens } from './tokens.js';
import type {
  FakeFault,
  FakeFaultFilter,
  FakeLlmServerOptions,
  FakeLlmStats,
  FakeRandomFaults,
  FakeReply,
  FakeRequestRecord,
  FakeRule,
} from './types.js';

export interface FakeLlmServer {
  // e.g. http://127.0.0.1:40123/v1 — pass as the openai SDK's baseURL.
  baseURL: string;
  url: string;
  port: number;
  stats(): FakeLlmStats;
  resetStats(): void;
  requests(): FakeRequestRecord[];
  setReply(text: string | undefined): void;
  setRules(rules: FakeRule[]): void;
  setLatency(ms: number): void;
  setCapacity(n: number): void;
  // Scripted replies, consumed one per choice, for one model or for any model.
  enqueueReplies(replies: FakeReply[], model?: string): void;
  // The next `count` requests matching `filter` fail with `fault`.
  injectFault(fault: FakeFault, count?: number, filter?: FakeFaultFilter): void;
  setRandomFaults(random: FakeRandomFaults | undefined): void;
  clearFaults(): void;
  close(): Promise<void>;
}

const CHAT = '/v1/chat/completions';
const EMBED = '/v1/embeddings';
const MODELS = '/v1/models';

export async function startFakeLlmServer(opts: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  let latencyMs = nonNegative(opts.latencyMs ?? 0, 'latencyMs');
  const slots = new SlotQueue(positiveInt(opts.capacity ?? 1024, 'capacity'));
  const replies = new ReplyBook(opts.rules ?? [], opts.reply);
  const faults = new FaultPlan(opts.randomFaults);
  const book = new StatsBook(opts.maxLoggedRequests ?? 10_000);
  const knownModels = new Set(opts.models ?? ['fake-model', 'fake-embedding']);
  // Load the tokenizer now (it takes most of a second): otherwise the first requests pay for it
  // inside their latency.
  countChatPromptTokens([{ role: 'user', content: 'warm-up' }]);
  const embeddingDim = positiveInt(opts.embeddingDim ?? 64, 'embeddingDim');
  const sockets = new Set<Socket>();
  let chatSeq = 0;

  const sendJson = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': `req-fake-${book.total}`,
      ...headers,
    });
    res.end(text);
  };
  const sendError = (res: ServerResponse, status: number, message: string, type: string, headers = {}) =>
    sendJson(res, status, { error: { message, type, param: null, code: null } }, headers);

  const hold = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

  // `arrivedAt`: when the request had fully come in. A request that finds a slot free is answered
  // `latency` after it arrived, one that waits `latency` after a slot was freed for it: the
  // time this thread takes to parse it, or to get to it when it is busy, is inside the latency,
  // not added to it.
  async function withSlot<T>(arrivedAt: number, extraMs: number, fn: () => T): Promise<T> {
    const slot = slots.acquire(arrivedAt);
    book.observeQueue(slots.queued);
    // When many requests get slots at once, the thread builds their answers one after another;
    // that wait must not stretch each slot's time either.
    const started = await slot;
    book.slotAcquired(slots);
    const due = started + latencyMs + extraMs;
    try {
      // The answer (token counts included) is built inside the slot's latency, so a slot is busy
      // for the configured latency, not latency + build time, and a request waiting for a slot
      // costs the server almost nothing.
      const out = fn();
      await hold(due - Date.now());
      return out;
    } finally {
      // Freed when the latency ended (see SlotQueue), or now if building the answer failed first.
      const freedAt = Math.min(Date.now(), due);
      book.slotReleased(freedAt - started);
      slots.release(freedAt);
    }
  }

  async function applyFault(res: ServerResponse, fault: FakeFault, arrivedAt: number): Promise<void> {
    if (fault.kind === 'status') {
      const status = fault.status ?? 400;
      const type = status >= 500 ? 'server_error' : 'invalid_request_error';
      return sendError(res, status, fault.message ?? `Scripted HTTP ${status} (fake)`, type);
    }
    if (fault.kind === 'rate-limit') {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      sendError(res, 429, 'Rate limit reached (fake)', 'requests', headers);
      return;
    }
    // A hung request holds no slot: it only waits until the client gives up or the server closes.
    if (fault.kind === 'hang') return;
    await withSlot(arrivedAt, 0, () => undefined);
    if (fault.kind === 'server-error') sendError(res, 500, 'Internal server error (fake)', 'server_error');
    else if (fault.kind === 'unavailable') sendError(res, 503, 'Service unavailable (fake)', 'server_error');
    else if (fault.kind === 'non-json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body>502 Bad Gateway</body></html>');
    } else {
      // truncate: promise a full body, send half of it, then cut the connection.
      const text = JSON.stringify({ id: 'chatcmpl-truncated', object: 'chat.completion', choices: [] });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length * 2) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => res.socket?.destroy(), 5);
    }
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    raw: string,
    arrivedAt: number,
  ): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Control routes for a server running in another process (CLI): stats and reset,
    // not counted as traffic.
    if (req.method === 'GET' && path === '/_fake/stats') return sendJson(res, 200, book.snapshot(slots));
    if (req.method === 'POST' && path === '/_fake/reset') {
      book.reset();
      return sendJson(res, 200, { ok: true });
    }
    let body: Record<string, unknown> = {};
    let parseError: string | null = null;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        parseError = 'request body is not valid JSON';
      }
    }
    const model = typeof body.model === 'string' ? body.model : null;
    const auth = req.headers.authorization ?? null;
    const rec = book.begin(req.method ?? 'GET', path, model, auth, body, arrivedAt);
    res.on('close', () => book.end(rec, res.headersSent ? res.statusCode : null));

    if (opts.apiKey !== undefined && auth !== `Bearer ${opts.apiKey}`) {
      // Like real providers, the message echoes the key it got: clients must never surface it.
      return sendError(res, 401, `Incorrect API key provided: ${auth ?? '(none)'}`, 'invalid_request_error');
    }
    if (parseError) return sendError(res, 400, parseError, 'invalid_request_error');
    if (req.method === 'GET' && path === MODELS) {
      const data = [...knownModels].map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-llm' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (req.method !== 'POST' || (path !== CHAT && path !== EMBED)) {
      return sendError(res, 404, `Unknown route ${req.method} ${path}`, 'invalid_request_error');
    }
    if (model && opts.rejectUnknownModels && !knownModels.has(model)) {
      const message = `The model \`${model}\` does not exist or you do not have access to it.`;
      return sendJson(res, 404, {
        error: { message, type: 'invalid_request_error', param: null, code: 'model_not_found' },
      });
    }
    if (model) knownModels.add(model);
    const fault = faults.draw(path, model);
    if (fault) {
      rec.fault = fault.kind;
      book.fault(fault.kind);
      return applyFault(res, fault, arrivedAt);
    }
    try {
      if (path === EMBED) {
        const out = await withSlot(arrivedAt, 0, () => embeddingResponse(body, embeddingDim));
        book.embeddingDone();
        return sendJson(res, 200, out);
      }
      const plan = parseChat(body);
      const seq = chatSeq++;
      const rule = replies.matchRule({ ...plan, requestIndex: seq });
      const out = await withSlot(arrivedAt, rule?.latencyMs ?? 0, () =>
        chatResponse(plan, replies, rule, seq),
      );
      book.chatDone(out.usage.prompt_tokens, out.usage.completion_tokens);
      return sendJson(res, 200, out);
    } catch (err) {
      if (err instanceof BadRequest) return sendError(res, 400, err.message, 'invalid_request_error');
      return sendError(res, 500, `fake server bug: ${(err as Error).message}`, 'server_error');
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8'), Date.now()).catch((err: Error) => {
        if (!res.headersSent) sendError(res, 500, `fake server bug: ${err.message}`, 'server_error');
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address}:${port}`;

  return {
    baseURL: `${url}/v1`,
    url,
    port,
    stats: () => book.snapshot(slots),
    resetStats: () => book.reset(),
    requests: () => book.log(),
    setReply: (text) => {
      replies.defaultReply = text;
    },
    setRules: (rules) => {
      replies.rules = rules;
    },
    setLatency: (ms) => {
      latencyMs = nonNegative(ms, 'latencyMs');
    },
    setCapacity: (n) => {
      slots.capacity = positiveInt(n, 'capacity');
    },
    enqueueReplies: (list, model) => replies.enqueue(list, model),
    injectFault: (fault, count, filter) => faults.inject(fault, count, filter),
    setRandomFaults: (random) => faults.setRandom(random),
    clearFaults: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`fake LLM server: ${name} must be a positive integer, got ${n}`);
  return n;
}

function nonNegative(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 0) throw new Error(`fake LLM server: ${name} must be >= 0, got ${n}`);
  return n;
}
