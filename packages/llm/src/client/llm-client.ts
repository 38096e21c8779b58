import type OpenAI from 'openai';
import type { ParkedCall, ParkOutcome } from '../batch/batch.store.js';
import { batchScopeOf } from '../batch/batch-scope.js';
import { parkInBatch } from '../batch/park-in-batch.js';
import { computeCacheKey, computeCacheKeys } from '../cache-key.js';
import { chatCostUnits, costUnits, formatCost } from '../cost.js';
import { LlmConfigError, LlmError, LlmResponseError } from '../errors.js';
import type { EndpointLimiterStats } from '../limits/endpoint-limiter.js';
import { type LimiterRegistry, processLimiters } from '../limits/limiter-registry.js';
import type { ModelKind, ModelRegistry, ModelSpec } from '../registry/model-spec.js';
import type { LlmCallRecord, LlmStore } from '../store/llm-store.js';
import { MemoryLlmStore } from '../store/memory-llm-store.js';
import {
  baseRecord,
  chatResult,
  estimateChatPromptTokens,
  hitRecord,
  sentRecord,
  summedUsage,
  toPlain,
  usageColumns,
  ZERO_COST,
} from './call-records.js';
import { largerBudget, lengthError, mergeResults } from './chat-replies.js';
import { estimateTokens } from './estimate-tokens.js';
import { executeWithRetries } from './execute-with-retries.js';
import { type Sdk, SdkClients } from './openai-sdk.js';
import { parseChatBody, parseEmbeddingBody } from './parse-response.js';
import { type PreparedChat, prepareChat } from './prepare-chat.js';
import type { ChatRequest, ChatResult, EmbedRequest, EmbedResult } from './types.js';
import { UnusableEndpoints } from './unusable-endpoints.js';
import { validateEmbedRequest } from './validate-request.js';

export interface LlmClientOptions {
  registry: ModelRegistry;
  // Cache + ledger; default an in-memory store (nothing persisted).
  store?: LlmStore;
  // Where API keys are read from (default process.env).
  env?: Record<string, string | undefined>;
  // Response cache default for calls that do not say (default true).
  cacheEnabled?: boolean;
  // Limits shared by every client in the process by default.
  limiters?: LimiterRegistry;
  // Randomness for backoff jitter (tests).
  random?: () => number;
  // Where calls wait for a provider batch (parkCall over the run's database). Without it, or
  // outside a task's batch scope, every call goes online.
  parkCall?: (call: ParkedCall) => Promise<ParkOutcome>;
}

// The template version of sample k of an n-sample request (part of its cache key).
export function sampleTemplateVersion(templateVersion: string | undefined, k: number): string {
  return `${templateVersion ?? ''}#sample-${k}`;
}

// The only way Precis calls a model: OpenAI-compatible chat completions and embeddings with
// shared limits, retries, timeouts, a content-addressed response cache and a per-call ledger.
export class LlmClient {
  readonly registry: ModelRegistry;
  readonly store: LlmStore;
  private readonly cacheEnabled: boolean;
  private readonly limiters: LimiterRegistry;
  private readonly sdks: SdkClients;
  private readonly used = new Set<string>();
  private readonly unusable = new UnusableEndpoints();

  constructor(private readonly opts: LlmClientOptions) {
    this.registry = opts.registry;
    this.store = opts.store ?? new MemoryLlmStore();
    this.sdks = new SdkClients(opts.registry, opts.env ?? process.env);
    this.cacheEnabled = opts.cacheEnabled ?? true;
    this.limiters = opts.limiters ?? processLimiters();
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const spec = this.spec(req.model, 'chat');
    const n = req.n ?? 1;
    const started = performance.now();
    // A provider that ignores or refuses n gets one call per sample from the start.
    if (n > 1 && spec.capabilities.n !== 'honoured')
      return mergeResults(await this.sampleCalls(req, 0, n), started);
    const first = await this.chatOnce(spec, req, started, false);
    if (first.choices.length >= n) return first;
    // Fewer choices than asked: the rest as calls of their own, never an average over fewer.
    return mergeResults([first, ...(await this.sampleCalls(req, first.choices.length, n))], started);
  }

  // Samples from..to-1 of an n-sample request, each its own seeded, cached and ledgered call.
  private sampleCalls(req: ChatRequest, from: number, to: number): Promise<ChatResult[]> {
    return Promise.all(
      Array.from({ length: to - from }, (_, i) =>
        this.chat({
          ...req,
          n: 1,
          seed: req.seed === undefined ? undefined : req.seed + from + i,
          templateVersion: sampleTemplateVersion(req.templateVersion, from + i),
        }),
      ),
    );
  }

  private async chatOnce(spec: ModelSpec, req: ChatRequest, started: number, reasked: boolean) {
    const prepared = prepareChat(spec, req);
    const [cacheKey] = computeCacheKeys(prepared.keyParts, [req.templateVersion]);
    const templateVersion = req.templateVersion ?? null;
    const found = await this.lookup(prepared, req, cacheKey!);
    if (found?.own) return chatResult(found.value, cacheKey!, started, false, ZERO_COST, 1, prepared.notes);
    if (found) {
      const result = chatResult(found.value, cacheKey!, started, true, ZERO_COST, 0, prepared.notes);
      const base = {
        ...baseRecord(prepared.spec, 'chat', cacheKey!, req, {}, templateVersion),
        notes: prepared.notes,
      };
      await this.store.record(
        hitRecord(prepared.spec, base, found.value.usage, result.latencyMs, { cachedAs: cacheKey! }),
      );
      return result;
    }
    return this.callChat(prepared, req, cacheKey!, templateVersion, started, reasked);
  }

  // `count` independent samples of one prompt (an n-sample judge). Sample k is the request with
  // template version sampleTemplateVersion(req.templateVersion, k): its own call with its own
  // cache entry, so a re-run hits the cache sample by sample. The request is validated,
  // serialized and hashed once for all samples, their cache lookups share one query, and the
  // samples answered from the cache are recorded as ONE ledger row counting them (calls = hits,
  // request.cachedAs = their keys, request.samples = their indices); each sample that goes out is
  // its own row as usual.
  async chatSamples(req: ChatRequest, count: number): Promise<ChatResult[]> {
    if (!Number.isInteger(count) || count < 1)
      throw new LlmConfigError(`chatSamples needs a positive integer sample count, got ${count}`, req.model);
    const prepared = prepareChat(this.spec(req.model, 'chat'), req);
    const versions = Array.from({ length: count }, (_, k) => sampleTemplateVersion(req.templateVersion, k));
    const keys = computeCacheKeys(prepared.keyParts, versions);
    const started = performance.now();
    const found = await Promise.all(keys.map((key) => this.lookup(prepared, req, key)));
    const cached = found.map((f) => (f && !f.own ? f.value : null));
    const results: (ChatResult | Promise<ChatResult>)[] = keys.map((key, k) => {
      const f = found[k];
      if (f) return chatResult(f.value, key, started, !f.own, ZERO_COST, f.own ? 1 : 0, prepared.notes);
      return this.callChat(prepared, req, key, versions[k]!, started, false);
    });
    // Settled below; observed now, so a sample that fails at once is not an unhandled rejection
    // while the hits are being recorded.
    const all = Promise.all(results);
    all.catch(() => {});
    const hits = cached.flatMap((hit, k) => (hit ? [k] : []));
    if (hits.length) {
      const usage = summedUsage(hits.map((k) => cached[k]!.usage));
      const base = {
        ...baseRecord(prepared.spec, 'chat', keys[hits[0]!]!, req, {}, req.templateVersion ?? null),
        notes: prepared.notes,
      };
      const record = hitRecord(prepared.spec, base, usage, Math.round(performance.now() - started), {
        cachedAs: hits.map((k) => keys[k]!),
        samples: hits,
      });
      await this.store.record({ ...record, calls: hits.length });
    }
    return all;
  }

  // What the cache holds for a call: the answer of this task's own batched call (its ledger row is
  // that call, not a cache hit; read also with the cache off, in a batch scope), a hit when the
  // cache is on, or nothing.
  private async lookup(prepared: PreparedChat, req: ChatRequest, cacheKey: string) {
    const useCache = req.cache ?? this.cacheEnabled;
    if (!useCache && !this.batchScope(prepared.spec, req.taskId)) return null;
    const found = await this.cachedChat(prepared, cacheKey);
    if (!found) return null;
    const own = found.batchTaskId !== null && found.batchTaskId === req.taskId;
    return own || useCache ? { own, value: found.value } : null;
  }

  private async cachedChat(prepared: PreparedChat, cacheKey: string) {
    const hit = await this.cachedBody(cacheKey, (b) => parseChatBody(b, prepared.spec.name));
    // A reply cut at its budget (cached before such replies were refused) is not an answer.
    return hit?.value.finishReasons.includes('length') ? null : hit;
  }

  // The call itself (after a cache miss, or with the cache off), recorded in the ledger.
  private async callChat(
    prepared: PreparedChat,
    req: ChatRequest,
    cacheKey: string,
    templateVersion: string | null,
    started: number,
    reasked: boolean,
  ): Promise<ChatResult> {
    const { spec, n } = prepared;
    const promptChars = prepared.promptChars();
    const body = prepared.body();
    const base = { ...baseRecord(spec, 'chat', cacheKey, req, body, templateVersion), notes: prepared.notes };
    const promptTokens = estimateChatPromptTokens(promptChars, req.messages.length);
    const output = {
      tokens: (req.maxTokens ?? spec.defaultMaxTokens) * n,
      limited: (req.maxTokens ?? 0) * n,
    };
    const scope = this.batchScope(spec, req.taskId);
    if (scope) {
      this.sdks.for(spec);
      await parkInBatch(
        this.opts.parkCall!,
        scope,
        spec,
        sentRecord(base, spec, promptTokens, output.tokens),
      );
    }
    const outcome = await this.send(spec, base, promptTokens, output, started, req, async (sdk, signal) => {
      const raw: unknown = await sdk.openai.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: spec.timeoutMs + 5_000 },
      );
      const parsed = parseChatBody(raw, spec.name);
      return { value: { raw, parsed }, tokens: parsed.usage.promptTokens + parsed.usage.completionTokens };
    });
    const { raw, parsed } = outcome.value;
    const cost = formatCost(chatCostUnits(parsed.usage, spec));
    const result = chatResult(parsed, cacheKey, started, false, cost, outcome.attempts, prepared.notes);
    const row = {
      ...outcome.sent,
      response: toPlain(raw),
      ...usageColumns(parsed.usage),
      latencyMs: result.latencyMs,
      costUsd: cost,
      attempts: outcome.attempts,
    };
    if (!parsed.finishReasons.includes('length')) {
      await this.store.record({ ...row, status: 'ok' });
      return result;
    }
    // Cut at its budget: paid for and kept in the ledger, never cached or read as an answer.
    const budget = reasked ? null : largerBudget(spec, req, parsed);
    const err = lengthError(spec, req, parsed, budget, reasked);
    await this.store.record({ ...row, status: 'error', error: `${err.name}: ${err.message}` });
    if (budget === null) throw err;
    return this.chatOnce(spec, { ...req, maxTokens: budget }, started, true);
  }

  async embed(req: EmbedRequest): Promise<EmbedResult> {
    const spec = this.spec(req.model, 'embedding');
    validateEmbedRequest(req, spec.name);
    const params = { dimensions: req.dimensions };
    const body = JSON.parse(
      JSON.stringify({ model: spec.modelId, input: req.input, encoding_format: 'float', ...params }),
    ) as Record<string, unknown>;
    const cacheKey = computeCacheKey({
      kind: 'embedding',
      modelId: spec.modelId,
      params,
      payload: req.input,
    });
    const started = performance.now();
    const base = baseRecord(spec, 'embedding', cacheKey, req, body, null);
    const expected = req.input.length;
    const finish = (p: ReturnType<typeof parseEmbeddingBody>, cost: string, attempts: number) => ({
      vectors: p.vectors,
      usage: p.usage,
      cached: attempts === 0,
      costUsd: cost,
      latencyMs: Math.round(performance.now() - started),
      attempts,
      cacheKey,
    });
    if (req.cache ?? this.cacheEnabled) {
      const hit = (await this.cachedBody(cacheKey, (b) => parseEmbeddingBody(b, spec.name, expected)))?.value;
      if (hit) {
        const result = finish(hit, ZERO_COST, 0);
        await this.store.record(hitRecord(spec, base, hit.usage, result.latencyMs, { cachedAs: cacheKey }));
        return result;
      }
    }
    const promptTokens = estimateTokens(req.input.join('\n'));
    const output = { tokens: 0, limited: 0 };
    const outcome = await this.send(spec, base, promptTokens, output, started, req, async (sdk, signal) => {
      const raw: unknown = await sdk.openai.embeddings.create(
        body as unknown as OpenAI.EmbeddingCreateParams,
        { signal, maxRetries: 0, timeout: spec.timeoutMs + 5_000 },
      );
      const parsed = parseEmbeddingBody(raw, spec.name, expected);
      return { value: { raw, parsed }, tokens: parsed.usage.promptTokens };
    });
    const { raw, parsed } = outcome.value;
    const cost = formatCost(costUnits(parsed.usage.promptTokens, 0, spec.priceInUnits, 0n));
    const result = finish(parsed, cost, outcome.attempts);
    await this.store.record({
      ...outcome.sent,
      status: 'ok',
      response: toPlain(raw),
      tokensIn: parsed.usage.promptTokens,
      latencyMs: result.latencyMs,
      costUsd: cost,
      attempts: outcome.attempts,
    });
    return result;
  }

  // The openai client of a model's endpoint (with its key), for its provider's Batch API.
  providerClient(name: string): OpenAI {
    return this.sdks.for(this.registry.get(name)).openai;
  }

  // Limiter state of every model this client has called.
  stats(): Record<string, EndpointLimiterStats> {
    const out: Record<string, EndpointLimiterStats> = {};
    for (const name of this.used) out[name] = this.limiters.for(this.registry.get(name)).stats();
    return out;
  }

  // Fails with MissingApiKeyError when the model's key variable is not set, and with the
  // refusal when an earlier 401/403/404 made its endpoint or model unusable for this client.
  checkUsable(name: string): void {
    const spec = this.registry.get(name);
    this.sdks.for(spec);
    const refused = this.unusable.check(spec);
    if (refused) throw refused;
  }

  // Writes buffered ledger rows.
  async close(): Promise<void> {
    await this.store.flush();
  }

  private spec(name: string, kind: ModelKind): ModelSpec {
    const spec = this.registry.get(name);
    if (spec.kind !== kind) {
      throw new LlmConfigError(
        `model "${name}" is registered as kind "${spec.kind}", but was called for ${kind}`,
        name,
      );
    }
    this.used.add(name);
    return spec;
  }

  // The task's batch scope, when its calls to this model may wait for a batch.
  private batchScope(spec: ModelSpec, taskId: string | undefined) {
    return spec.batch && this.opts.parkCall ? batchScopeOf(taskId) : null;
  }

  // Sends one call: refused at once without a key or after a permanent refusal; otherwise its
  // 'sent' row is written (its reserved cost committed against the run's limit, or CostLimitError
  // and nothing sent), then the attempts run. A failure settles the row as an error; the caller
  // settles a success. `output.tokens` is reserved in cost, `output.limited` in tokens/min.
  private async send<T>(
    spec: ModelSpec,
    base: LlmCallRecord,
    promptTokens: number,
    output: { tokens: number; limited: number },
    started: number,
    req: { signal?: AbortSignal },
    attempt: (sdk: Sdk, signal: AbortSignal) => Promise<{ value: T; tokens: number }>,
  ) {
    const sdk = this.sdks.for(spec);
    const refused = this.unusable.check(spec);
    if (refused) throw refused;
    const sent = sentRecord(base, spec, promptTokens, output.tokens);
    await this.store.recordSent(sent);
    try {
      const outcome = await executeWithRetries({
        spec,
        limiter: this.limiters.for(spec),
        estimatedTokens: promptTokens + output.limited,
        secrets: sdk.secrets,
        signal: req.signal,
        random: this.opts.random,
        unusable: this.unusable,
        attempt: (signal) => attempt(sdk, signal),
      });
      return { ...outcome, sent };
    } catch (err) {
      const e = err instanceof LlmError ? err : new LlmResponseError(String(err), spec.name);
      await this.store.record({
        ...sent,
        status: 'error',
        tokensIn: 0,
        costUsd: ZERO_COST,
        latencyMs: Math.round(performance.now() - started),
        attempts: e.attempts,
        error: `${e.name}: ${e.message}`,
      });
      throw e;
    }
  }

  private async cachedBody<P>(
    cacheKey: string,
    parse: (body: unknown) => P,
  ): Promise<{ value: P; batchTaskId: string | null } | null> {
    const hit = await this.store.findCached(cacheKey);
    if (!hit) return null;
    try {
      return { value: parse(hit.body), batchTaskId: hit.batchTaskId };
    } catch {
      // An unusable cached body is a miss; the fresh response will be cached instead.
      return null;
    }
  }
}
