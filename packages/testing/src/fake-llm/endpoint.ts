import type { IncomingMessage, ServerResponse } from 'node:http';
import { FileStore } from './batch-files.js';
import { batchRoute, isBatchRoute } from './batch-routes.js';
import { BatchDesk } from './batches.js';
import { FaultPlan } from './faults.js';
import {
  CHAT,
  credentialAccepted,
  EMBED,
  MODELS,
  presentedCredential,
  resolveRoute,
  unauthorizedBody,
} from './profile-routes.js';
import { PromptCacheBook } from './profile-usage.js';
import { type FakeProviderProfile, PROFILE_BEHAVIOURS, parseProfile, prepareChat } from './profiles.js';
import { ReplyBook } from './replies.js';
import { BadRequest, type ChatPlan, chatResponse, embeddingResponse, parseChat } from './responses.js';
import { SlotQueue } from './slots.js';
import { StatsBook } from './stats.js';
import type { FakeFault, FakeLlmServerOptions, FakeLlmStats, FakeRequestRecord } from './types.js';

const hold = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

export function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`fake LLM server: ${name} must be a positive integer, got ${n}`);
  return n;
}

export function nonNegative(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 0) throw new Error(`fake LLM server: ${name} must be >= 0, got ${n}`);
  return n;
}

// What the fake endpoint answers: routes, auth, faults, slots and scripted replies.
export class FakeEndpoint {
  latencyMs: number;
  readonly slots: SlotQueue;
  readonly replies: ReplyBook;
  readonly faults: FaultPlan;
  readonly book: StatsBook;
  private readonly knownModels: Set<string>;
  private readonly embeddingDim: number;
  private chatSeq = 0;
  // The provider the endpoint imitates (see profiles.ts) and its prompt cache.
  profile: FakeProviderProfile;
  cachedPromptTokens: number | undefined;
  private readonly promptCache = new PromptCacheBook();
  // Uploaded files and the Batch API's batches, answered as the online routes answer.
  readonly files = new FileStore();
  readonly batches: BatchDesk;

  constructor(private readonly opts: FakeLlmServerOptions) {
    this.latencyMs = nonNegative(opts.latencyMs ?? 0, 'latencyMs');
    this.slots = new SlotQueue(positiveInt(opts.capacity ?? 1024, 'capacity'));
    this.replies = new ReplyBook(opts.rules ?? [], opts.reply);
    this.faults = new FaultPlan(opts.randomFaults);
    this.book = new StatsBook(opts.maxLoggedRequests ?? 10_000);
    this.knownModels = new Set(opts.models ?? ['fake-model', 'fake-embedding']);
    this.embeddingDim = positiveInt(opts.embeddingDim ?? 64, 'embeddingDim');
    this.profile = parseProfile(opts.profile ?? 'generic');
    this.cachedPromptTokens =
      opts.cachedPromptTokens === undefined
        ? undefined
        : nonNegative(opts.cachedPromptTokens, 'cachedPromptTokens');
    this.batches = new BatchDesk(this.files, opts.batches ?? {}, (url, body) =>
      this.answerBatchLine(url, body),
    );
  }

  snapshot(): FakeLlmStats {
    return { ...this.book.snapshot(this.slots), batches: this.batches.stats() };
  }

  sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': `req-fake-${this.book.total}`,
      ...headers,
    });
    res.end(text);
  }

  sendError(res: ServerResponse, status: number, message: string, type: string, headers = {}): void {
    this.sendJson(res, status, { error: { message, type, param: null, code: null } }, headers);
  }

  // `arrivedAt`: when the request had fully come in. A request that finds a slot free is answered
  // `latency` after it arrived, one that waits `latency` after a slot was freed for it: the
  // time this thread takes to parse it, or to get to it when it is busy, is inside the latency,
  // not added to it.
  async withSlot<T>(arrivedAt: number, extraMs: number, fn: () => T): Promise<T> {
    const slot = this.slots.acquire(arrivedAt);
    this.book.observeQueue(this.slots.queued);
    // When many requests get slots at once, the thread builds their answers one after another;
    // that wait must not stretch each slot's time either.
    const started = await slot;
    this.book.slotAcquired(this.slots);
    const due = started + this.latencyMs + extraMs;
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
      this.book.slotReleased(freedAt - started);
      this.slots.release(freedAt);
    }
  }

  async applyFault(res: ServerResponse, fault: FakeFault, arrivedAt: number): Promise<void> {
    if (fault.kind === 'status') {
      const status = fault.status ?? 400;
      const type = status >= 500 ? 'server_error' : 'invalid_request_error';
      return this.sendError(res, status, fault.message ?? `Scripted HTTP ${status} (fake)`, type);
    }
    if (fault.kind === 'rate-limit') {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      this.sendError(res, 429, 'Rate limit reached (fake)', 'requests', headers);
      return;
    }
    // A hung request holds no slot: it only waits until the client gives up or the server closes.
    if (fault.kind === 'hang') return;
    await this.withSlot(arrivedAt, 0, () => undefined);
    if (fault.kind === 'server-error')
      this.sendError(res, 500, 'Internal server error (fake)', 'server_error');
    else if (fault.kind === 'unavailable')
      this.sendError(res, 503, 'Service unavailable (fake)', 'server_error');
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

  async handle(req: IncomingMessage, res: ServerResponse, raw: string, arrivedAt: number): Promise<void> {
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    // Control routes for a server running in another process (CLI): stats, the request log and
    // reset, not counted as traffic.
    if (req.method === 'GET' && rawPath === '/_fake/stats') return this.sendJson(res, 200, this.snapshot());
    if (req.method === 'GET' && rawPath === '/_fake/requests')
      return this.sendJson(res, 200, this.book.log());
    if (req.method === 'POST' && rawPath === '/_fake/reset') {
      this.book.reset();
      return this.sendJson(res, 200, { ok: true });
    }
    let body: Record<string, unknown> = {};
    let parseError: string | null = null;
    // A file upload is multipart/form-data, read by the files route itself.
    const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
    if (req.method === 'POST' && !multipart) {
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        parseError = 'request body is not valid JSON';
      }
    }
    const azure = PROFILE_BEHAVIOURS[this.profile].azure;
    const route = resolveRoute(azure, req.url ?? '/');
    // Azure names the model by its deployment, in the path.
    const model = route.deployment ?? (typeof body.model === 'string' ? body.model : null);
    const auth = presentedCredential(azure, req.headers);
    const rec = this.book.begin(req.method ?? 'GET', rawPath, model, auth, body, arrivedAt);
    res.on('close', () => this.book.end(rec, res.headersSent ? res.statusCode : null));

    if (this.opts.apiKey !== undefined && !credentialAccepted(azure, req.headers, this.opts.apiKey)) {
      return this.sendJson(res, 401, unauthorizedBody(azure, auth));
    }
    if (parseError) return this.sendError(res, 400, parseError, 'invalid_request_error');
    if (route.error) return this.sendJson(res, route.error.status, route.error.body);
    const path = route.path;
    if (req.method === 'GET' && path === MODELS) {
      const data = [...this.knownModels].map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'fake-llm',
      }));
      return this.sendJson(res, 200, { object: 'list', data });
    }
    if (isBatchRoute(path)) return batchRoute(this, this.files, this.batches, req, res, { path, body, raw });
    if (req.method !== 'POST' || (path !== CHAT && path !== EMBED)) {
      return this.sendError(res, 404, `Unknown route ${req.method} ${path}`, 'invalid_request_error');
    }
    if (model && this.opts.rejectUnknownModels && !this.knownModels.has(model)) {
      const message = `The model \`${model}\` does not exist or you do not have access to it.`;
      return this.sendJson(res, 404, {
        error: { message, type: 'invalid_request_error', param: null, code: 'model_not_found' },
      });
    }
    if (model) this.knownModels.add(model);
    const served = route.deployment === null ? body : { ...body, model: route.deployment };
    return this.answer(res, path, model, served, arrivedAt, rec);
  }

  // A completion or embedding request that passed the checks: a fault, or the scripted answer.
  private async answer(
    res: ServerResponse,
    path: string,
    model: string | null,
    body: Record<string, unknown>,
    arrivedAt: number,
    rec: FakeRequestRecord,
  ): Promise<void> {
    const fault = this.faults.draw(path, model);
    if (fault) {
      rec.fault = fault.kind;
      this.book.fault(fault.kind);
      return this.applyFault(res, fault, arrivedAt);
    }
    try {
      if (path === EMBED) {
        const out = await this.withSlot(arrivedAt, 0, () => embeddingResponse(body, this.embeddingDim));
        this.book.embeddingDone();
        return this.sendJson(res, 200, out);
      }
      return await this.answerChat(res, parseChat(body), arrivedAt);
    } catch (err) {
      if (err instanceof BadRequest) return this.sendError(res, 400, err.message, 'invalid_request_error');
      return this.sendError(res, 500, `fake server bug: ${(err as Error).message}`, 'server_error');
    }
  }

  // A chat request as the profile's provider takes it: its refusal, or the plan, the rule that
  // answers it and its sequence number.
  private planChat(parsed: ChatPlan) {
    const prepared = prepareChat(this.profile, parsed, (prompt) =>
      this.cachedPromptTokens === undefined
        ? this.promptCache.cachedTokens(parsed.model, parsed.messages, prompt)
        : Math.min(this.cachedPromptTokens, prompt),
    );
    if (prepared.refusal) return { refusal: prepared.refusal } as const;
    const seq = this.chatSeq++;
    return { ...prepared, seq, rule: this.replies.matchRule({ ...prepared.plan, requestIndex: seq }) };
  }

  private answered<T extends { usage: { prompt_tokens: number; completion_tokens: number } }>(
    plan: ChatPlan,
    out: T,
  ): T {
    this.promptCache.remember(plan.model, plan.messages);
    this.book.chatDone(out.usage.prompt_tokens, out.usage.completion_tokens);
    return out;
  }

  // A chat request as the profile's provider takes it: refused at once, or answered in a slot.
  private async answerChat(res: ServerResponse, parsed: ChatPlan, arrivedAt: number): Promise<void> {
    const planned = this.planChat(parsed);
    if (planned.refusal) return this.sendJson(res, 400, { error: planned.refusal });
    const { plan, shaping, seq, rule } = planned;
    const out = await this.withSlot(arrivedAt, rule?.latencyMs ?? 0, () =>
      chatResponse(plan, this.replies, rule, seq, shaping),
    );
    return this.sendJson(res, 200, this.answered(plan, out));
  }

  // One line of a batch, answered as online but without a slot (the batch's phases take the
  // time): a drawn fault becomes that line's error status.
  private answerBatchLine(url: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const fault = this.faults.draw(url, typeof body.model === 'string' ? body.model : null);
    if (fault) {
      this.book.fault(fault.kind);
      const status =
        fault.kind === 'status' ? (fault.status ?? 400) : fault.kind === 'rate-limit' ? 429 : 500;
      const type = status >= 500 ? 'server_error' : 'invalid_request_error';
      const message = fault.message ?? `Scripted HTTP ${status} (fake)`;
      return { status, body: { error: { message, type, param: null, code: null } } };
    }
    try {
      if (url === EMBED) {
        this.book.embeddingDone();
        return { status: 200, body: embeddingResponse(body, this.embeddingDim) };
      }
      const planned = this.planChat(parseChat(body));
      if (planned.refusal) return { status: 400, body: { error: planned.refusal } };
      const { plan, shaping, seq, rule } = planned;
      return { status: 200, body: this.answered(plan, chatResponse(plan, this.replies, rule, seq, shaping)) };
    } catch (err) {
      if (!(err instanceof BadRequest)) throw err;
      const error = { message: err.message, type: 'invalid_request_error', param: null, code: null };
      return { status: 400, body: { error } };
    }
  }
}
