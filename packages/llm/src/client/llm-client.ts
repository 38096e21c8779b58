import OpenAI from 'openai';
import { type CacheKeyParts, computeCacheKey, computeCacheKeys } from '../cache-key.js';
import { costUnits, formatCost } from '../cost.js';
import { LlmConfigError, LlmError, LlmResponseError } from '../errors.js';
import type { EndpointLimiterStats } from '../limits/endpoint-limiter.js';
import { type LimiterRegistry, processLimiters } from '../limits/limiter-registry.js';
import type { ModelKind, ModelRegistry, ModelSpec } from '../registry/model-spec.js';
import { DeferredLedger } from '../store/deferred-ledger.js';
import type { LlmCallRecord, LlmStore } from '../store/llm-store.js';
import { MemoryLlmStore } from '../store/memory-llm-store.js';
import { checkContextWindow } from './context-window.js';
import { estimateTokens, estimateTokensForChars } from './estimate-tokens.js';
import { executeWithRetries } from './execute-with-retries.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { ownTurn } from './own-turn.js';
import { parseChatBody, parseEmbeddingBody } from './parse-response.js';
import type { ChatRequest, ChatResult, EmbedRequest, EmbedResult } from './types.js';
import { validateChatRequest, validateEmbedRequest } from './validate-request.js';

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
  // HTTP transport: 'node-http' (default; keep-alive node:http agents, about half the CPU per
  // call of the built-in fetch) or 'fetch' (Node's fetch, as the SDK uses by default).
  transport?: 'node-http' | 'fetch';
}

interface Sdk {
  openai: OpenAI;
  secrets: string[];
}

const ZERO_COST = formatCost(0n);

// The template version of sample k of an n-sample request (part of its cache key).
export function sampleTemplateVersion(templateVersion: string | undefined, k: number): string {
  return `${templateVersion ?? ''}#sample-${k}`;
}

interface PreparedChat {
  spec: ModelSpec;
  n: number;
  keyParts: Omit<CacheKeyParts, 'templateVersion'>;
  body(): Record<string, unknown>;
  // The prompt's length in characters (its messages joined by newlines), checked against the
  // model's context window on first use.
  promptChars(): number;
}

// The only way Precis calls a model: OpenAI-compatible chat completions and embeddings with
// shared limits, retries, timeouts, a content-addressed response cache and a per-call ledger.
export class LlmClient {
  readonly registry: ModelRegistry;
  readonly store: LlmStore;
  private readonly env: Record<string, string | undefined>;
  private readonly cacheEnabled: boolean;
  private readonly limiters: LimiterRegistry;
  private readonly sdks = new Map<string, Sdk>();
  private readonly used = new Set<string>();
  private readonly fetchImpl: typeof fetch | undefined;

  constructor(private readonly opts: LlmClientOptions) {
    this.registry = opts.registry;
    this.store = opts.store ?? new MemoryLlmStore();
    this.env = opts.env ?? process.env;
    this.cacheEnabled = opts.cacheEnabled ?? true;
    this.limiters = opts.limiters ?? processLimiters();
    this.fetchImpl = (opts.transport ?? 'node-http') === 'node-http' ? createNodeHttpFetch() : undefined;
  }

  // Calls are prepared (serialized, hashed) and sent each in an event-loop turn of its own: when
  // a worker starts many tasks at once, the first request is on the wire after one call's work,
  // not after every call has been built (their socket writes would all wait for the same turn).
  // The first call of a turn goes on at once; the others wait for turns of their own. Misses
  // found by one grouped cache lookup resume together, so they take turns the same way.
  async chat(req: ChatRequest): Promise<ChatResult> {
    await ownTurn();
    await req.ledger?.flush();
    const prepared = this.prepareChat(req);
    const [cacheKey] = computeCacheKeys(prepared.keyParts, [req.templateVersion]);
    const templateVersion = req.templateVersion ?? null;
    const started = performance.now();
    if (req.cache ?? this.cacheEnabled) {
      const hit = await this.cachedChat(prepared, cacheKey!);
      if (hit) {
        const result = chatResult(hit, cacheKey!, started, true, ZERO_COST, 0);
        await this.record(
          req.ledger,
          this.hitRecord(
            prepared.spec,
            'chat',
            cacheKey!,
            req,
            templateVersion,
            hit.usage,
            result.latencyMs,
            {
              cachedAs: cacheKey!,
            },
          ),
        );
        return result;
      }
      await ownTurn();
    }
    return this.callChat(prepared, req, cacheKey!, templateVersion, started);
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
    await ownTurn();
    await req.ledger?.flush();
    const prepared = this.prepareChat(req);
    const versions = Array.from({ length: count }, (_, k) => sampleTemplateVersion(req.templateVersion, k));
    const keys = computeCacheKeys(prepared.keyParts, versions);
    const started = performance.now();
    const looked = req.cache ?? this.cacheEnabled;
    const cached = looked
      ? await Promise.all(keys.map((key) => this.cachedChat(prepared, key)))
      : keys.map(() => null);
    const results: (ChatResult | Promise<ChatResult>)[] = keys.map((key, k) => {
      const hit = cached[k];
      if (hit) return chatResult(hit, key, started, true, ZERO_COST, 0);
      const send = () => this.callChat(prepared, req, key, versions[k]!, started);
      return looked ? Promise.resolve(ownTurn()).then(send) : send();
    });
    // Settled below; observed now, so a sample that fails at once is not an unhandled rejection
    // while the hits are being recorded.
    const all = Promise.all(results);
    all.catch(() => {});
    const hits = cached.flatMap((hit, k) => (hit ? [k] : []));
    if (hits.length) {
      const usage = { promptTokens: 0, completionTokens: 0 };
      for (const k of hits) {
        usage.promptTokens += cached[k]!.usage.promptTokens;
        usage.completionTokens += cached[k]!.usage.completionTokens;
      }
      const record = this.hitRecord(
        prepared.spec,
        'chat',
        keys[hits[0]!]!,
        req,
        req.templateVersion ?? null,
        usage,
        Math.round(performance.now() - started),
        { cachedAs: hits.map((k) => keys[k]!), samples: hits },
      );
      await this.record(req.ledger, { ...record, calls: hits.length });
    }
    return all;
  }

  private prepareChat(req: ChatRequest): PreparedChat {
    const spec = this.spec(req.model, 'chat');
    validateChatRequest(req, spec.name);
    const n = req.n ?? 1;
    const params = {
      temperature: req.temperature,
      top_p: req.topP,
      max_tokens: req.maxTokens,
      // n = 1 is the default: leaving it out keeps the cache key the same either way.
      n: n > 1 ? n : undefined,
      seed: req.seed,
      stop: req.stop,
      logprobs: req.logprobs,
      top_logprobs: req.topLogprobs,
    };
    const messages = req.messages.map((m) => ({ role: m.role, content: m.content }));
    let body: Record<string, unknown> | undefined;
    let promptChars: number | undefined;
    return {
      spec,
      n,
      keyParts: { kind: 'chat', modelId: spec.modelId, params, payload: messages },
      // Built only when a call goes out (a warm re-run never serializes the prompt again).
      body: () => {
        if (body === undefined) {
          // The request body: the messages as they are (plain strings), the params that are set.
          body = { model: spec.modelId, messages };
          for (const [k, v] of Object.entries(params)) if (v !== undefined) body[k] = v;
        }
        return body;
      },
      promptChars: () => {
        if (promptChars === undefined) {
          const chars = messages.reduce((sum, m) => sum + m.content.length, Math.max(0, messages.length - 1));
          checkContextWindow(spec, chars, () => messages.map((m) => m.content).join('\n'), req.maxTokens);
          promptChars = chars;
        }
        return promptChars;
      },
    };
  }

  private async cachedChat(prepared: PreparedChat, cacheKey: string) {
    return this.cachedBody(cacheKey, (b) => parseChatBody(b, prepared.spec.name, prepared.n));
  }

  // The call itself (after a cache miss, or with the cache off), recorded in the ledger.
  private async callChat(
    prepared: PreparedChat,
    req: ChatRequest,
    cacheKey: string,
    templateVersion: string | null,
    started: number,
  ): Promise<ChatResult> {
    const { spec, n } = prepared;
    const promptChars = prepared.promptChars();
    const body = prepared.body();
    const base = this.baseRecord(spec, 'chat', cacheKey, req, body, templateVersion);
    const sdk = this.sdk(spec);
    const estimate = estimateTokensForChars(promptChars) + (req.maxTokens ?? 0) * n;
    const outcome = await this.run(spec, sdk, estimate, started, base, req, async (signal) => {
      const raw: unknown = await sdk.openai.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: spec.timeoutMs + 5_000 },
      );
      const parsed = parseChatBody(raw, spec.name, n);
      return { value: { raw, parsed }, tokens: parsed.usage.promptTokens + parsed.usage.completionTokens };
    });
    const { raw, parsed } = outcome.value;
    const cost = formatCost(
      costUnits(
        parsed.usage.promptTokens,
        parsed.usage.completionTokens,
        spec.priceInUnits,
        spec.priceOutUnits,
      ),
    );
    const result = chatResult(parsed, cacheKey, started, false, cost, outcome.attempts);
    await this.record(req.ledger, {
      ...base,
      response: toPlain(raw),
      tokensIn: parsed.usage.promptTokens,
      tokensOut: parsed.usage.completionTokens,
      latencyMs: result.latencyMs,
      costUsd: cost,
      attempts: outcome.attempts,
    });
    return result;
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
    const base = this.baseRecord(spec, 'embedding', cacheKey, req, body, null);
    const expected = req.input.length;
    const finish = (
      p: ReturnType<typeof parseEmbeddingBody>,
      cached: boolean,
      cost: string,
      attempts: number,
    ) => ({
      vectors: p.vectors,
      usage: p.usage,
      cached,
      costUsd: cost,
      latencyMs: Math.round(performance.now() - started),
      attempts,
      cacheKey,
    });
    if (req.cache ?? this.cacheEnabled) {
      const hit = await this.cachedBody(cacheKey, (b) => parseEmbeddingBody(b, spec.name, expected));
      if (hit) {
        const result = finish(hit, true, ZERO_COST, 0);
        await this.store.record(
          this.hitRecord(spec, 'embedding', cacheKey, req, null, hit.usage, result.latencyMs, {
            cachedAs: cacheKey,
          }),
        );
        return result;
      }
    }
    const sdk = this.sdk(spec);
    const estimate = estimateTokens(req.input.join('\n'));
    const outcome = await this.run(spec, sdk, estimate, started, base, req, async (signal) => {
      const raw: unknown = await sdk.openai.embeddings.create(
        body as unknown as OpenAI.EmbeddingCreateParams,
        { signal, maxRetries: 0, timeout: spec.timeoutMs + 5_000 },
      );
      const parsed = parseEmbeddingBody(raw, spec.name, expected);
      return { value: { raw, parsed }, tokens: parsed.usage.promptTokens };
    });
    const { raw, parsed } = outcome.value;
    const cost = formatCost(costUnits(parsed.usage.promptTokens, 0, spec.priceInUnits, 0n));
    const result = finish(parsed, false, cost, outcome.attempts);
    await this.store.record({
      ...base,
      response: toPlain(raw),
      tokensIn: parsed.usage.promptTokens,
      latencyMs: result.latencyMs,
      costUsd: cost,
      attempts: outcome.attempts,
    });
    return result;
  }

  // Limiter state of every model this client has called.
  stats(): Record<string, EndpointLimiterStats> {
    const out: Record<string, EndpointLimiterStats> = {};
    for (const name of this.used) out[name] = this.limiters.for(this.registry.get(name)).stats();
    return out;
  }

  // A ledger for one task's calls whose rows the task writes itself, with its result, in the
  // database `db` (see DeferredLedger); null when this client's store does not write to `db`,
  // and the calls then record themselves as usual.
  deferLedger(db: unknown): DeferredLedger | null {
    return this.store.sharesDatabase?.(db) ? new DeferredLedger(this.store) : null;
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

  private sdk(spec: ModelSpec): Sdk {
    const apiKey = spec.apiKeyEnv ? this.env[spec.apiKeyEnv] : undefined;
    if (spec.apiKeyEnv && !apiKey) {
      throw new LlmConfigError(
        `model "${spec.name}" needs an API key in the environment variable ${spec.apiKeyEnv} (apiKeyEnv in ${this.registry.source}); set it or remove apiKeyEnv for a server without auth`,
        spec.name,
      );
    }
    const key = `${spec.baseURL}\u0000${apiKey ?? ''}`;
    let sdk = this.sdks.get(key);
    if (!sdk) {
      // Local servers (vLLM, Ollama...) need no key, but the SDK insists on one.
      const openai = new OpenAI({
        apiKey: apiKey ?? 'no-key',
        baseURL: spec.baseURL,
        maxRetries: 0,
        timeout: spec.timeoutMs + 5_000,
        fetch: this.fetchImpl,
      });
      sdk = { openai, secrets: apiKey ? [apiKey] : [] };
      this.sdks.set(key, sdk);
    }
    return sdk;
  }

  private async run<T>(
    spec: ModelSpec,
    sdk: Sdk,
    estimate: number,
    started: number,
    base: LlmCallRecord,
    req: { signal?: AbortSignal; ledger?: DeferredLedger },
    attempt: (signal: AbortSignal) => Promise<{ value: T; tokens: number }>,
  ) {
    try {
      return await executeWithRetries({
        spec,
        limiter: this.limiters.for(spec),
        estimatedTokens: estimate,
        secrets: sdk.secrets,
        signal: req.signal,
        random: this.opts.random,
        attempt,
      });
    } catch (err) {
      const e = err instanceof LlmError ? err : new LlmResponseError(String(err), spec.name);
      await this.record(req.ledger, {
        ...base,
        latencyMs: Math.round(performance.now() - started),
        attempts: e.attempts,
        error: `${e.name}: ${e.message}`,
      });
      throw e;
    }
  }

  private async record(ledger: DeferredLedger | undefined, row: LlmCallRecord): Promise<void> {
    if (ledger) ledger.add(row);
    else await this.store.record(row);
  }

  private async cachedBody<P>(cacheKey: string, parse: (body: unknown) => P): Promise<P | null> {
    const body = await this.store.findCached(cacheKey);
    if (!body) return null;
    try {
      return parse(body);
    } catch {
      // An unusable cached body is a miss; the fresh response will be cached instead.
      return null;
    }
  }

  private baseRecord(
    spec: ModelSpec,
    kind: 'chat' | 'embedding',
    cacheKey: string,
    req: { runId?: string; taskId?: string },
    body: Record<string, unknown>,
    templateVersion: string | null,
  ): LlmCallRecord {
    return {
      runId: req.runId ?? null,
      taskId: req.taskId ?? null,
      model: spec.name,
      modelId: spec.modelId,
      kind,
      cacheKey,
      cacheHit: false,
      templateVersion,
      request: body,
      response: null,
      tokensIn: 0,
      tokensOut: 0,
      latencyMs: 0,
      costUsd: ZERO_COST,
      attempts: 0,
      error: null,
      calls: 1,
    };
  }

  // Cache hits cost nothing; their tokens are recorded so workload size stays visible.
  private hitRecord(
    spec: ModelSpec,
    kind: 'chat' | 'embedding',
    cacheKey: string,
    req: { runId?: string; taskId?: string },
    templateVersion: string | null,
    usage: { promptTokens: number; completionTokens: number },
    latencyMs: number,
    // The request and response already stand in the row that filled the cache (same cache key):
    // a hit records only which entry answered, so warm re-runs do not rewrite every prompt.
    request: { cachedAs: string | string[]; samples?: number[] },
  ): LlmCallRecord {
    return {
      ...this.baseRecord(spec, kind, cacheKey, req, request, templateVersion),
      cacheHit: true,
      tokensIn: usage.promptTokens,
      tokensOut: usage.completionTokens,
      latencyMs,
    };
  }
}

function chatResult(
  parsed: ReturnType<typeof parseChatBody>,
  cacheKey: string,
  started: number,
  cached: boolean,
  costUsd: string,
  attempts: number,
): ChatResult {
  const result: ChatResult = {
    text: parsed.choices[0] ?? '',
    choices: parsed.choices,
    finishReasons: parsed.finishReasons,
    usage: parsed.usage,
    cached,
    costUsd,
    latencyMs: Math.round(performance.now() - started),
    attempts,
    cacheKey,
  };
  if (parsed.logprobs) result.logprobs = parsed.logprobs;
  return result;
}

function toPlain(raw: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
}
