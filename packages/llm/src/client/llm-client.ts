import OpenAI from 'openai';
import { computeCacheKey } from '../cache-key.js';
import { costUnits, formatCost } from '../cost.js';
import { LlmConfigError, LlmError, LlmResponseError } from '../errors.js';
import type { EndpointLimiterStats } from '../limits/endpoint-limiter.js';
import { type LimiterRegistry, processLimiters } from '../limits/limiter-registry.js';
import type { ModelKind, ModelRegistry, ModelSpec } from '../registry/model-spec.js';
import type { LlmCallRecord, LlmStore } from '../store/llm-store.js';
import { MemoryLlmStore } from '../store/memory-llm-store.js';
import { checkContextWindow } from './context-window.js';
import { estimateTokens } from './estimate-tokens.js';
import { executeWithRetries } from './execute-with-retries.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
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

  async chat(req: ChatRequest): Promise<ChatResult> {
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
    const body = JSON.parse(JSON.stringify({ model: spec.modelId, messages, ...params })) as Record<
      string,
      unknown
    >;
    const cacheKey = computeCacheKey({
      kind: 'chat',
      modelId: spec.modelId,
      params,
      payload: messages,
      templateVersion: req.templateVersion,
    });
    const started = performance.now();
    const base = this.baseRecord(spec, 'chat', cacheKey, req, body, req.templateVersion ?? null);
    const finish = (
      parsed: ReturnType<typeof parseChatBody>,
      cached: boolean,
      cost: string,
      attempts: number,
    ) => {
      const result: ChatResult = {
        text: parsed.choices[0] ?? '',
        choices: parsed.choices,
        finishReasons: parsed.finishReasons,
        usage: parsed.usage,
        cached,
        costUsd: cost,
        latencyMs: Math.round(performance.now() - started),
        attempts,
        cacheKey,
      };
      if (parsed.logprobs) result.logprobs = parsed.logprobs;
      return result;
    };

    if (req.cache ?? this.cacheEnabled) {
      const hit = await this.cachedBody(cacheKey, (b) => parseChatBody(b, spec.name, n));
      if (hit) {
        const result = finish(hit, true, ZERO_COST, 0);
        await this.store.record(this.hitRecord(base, hit.usage, result.latencyMs));
        return result;
      }
    }
    const promptText = messages.map((m) => m.content).join('\n');
    checkContextWindow(spec, promptText, req.maxTokens);
    const sdk = this.sdk(spec);
    const estimate = estimateTokens(promptText) + (req.maxTokens ?? 0) * n;
    const outcome = await this.run(spec, sdk, estimate, started, base, req.signal, async (signal) => {
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
    const result = finish(parsed, false, cost, outcome.attempts);
    await this.store.record({
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
        await this.store.record(this.hitRecord(base, hit.usage, result.latencyMs));
        return result;
      }
    }
    const sdk = this.sdk(spec);
    const estimate = estimateTokens(req.input.join('\n'));
    const outcome = await this.run(spec, sdk, estimate, started, base, req.signal, async (signal) => {
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
    signal: AbortSignal | undefined,
    attempt: (signal: AbortSignal) => Promise<{ value: T; tokens: number }>,
  ) {
    try {
      return await executeWithRetries({
        spec,
        limiter: this.limiters.for(spec),
        estimatedTokens: estimate,
        secrets: sdk.secrets,
        signal,
        random: this.opts.random,
        attempt,
      });
    } catch (err) {
      const e = err instanceof LlmError ? err : new LlmResponseError(String(err), spec.name);
      await this.store.record({
        ...base,
        latencyMs: Math.round(performance.now() - started),
        attempts: e.attempts,
        error: `${e.name}: ${e.message}`,
      });
      throw e;
    }
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
    };
  }

  // Cache hits cost nothing; their tokens are recorded so workload size stays visible.
  private hitRecord(
    base: LlmCallRecord,
    usage: { promptTokens: number; completionTokens: number },
    latencyMs: number,
  ) {
    // The request and response already stand in the row that filled the cache (same cache key):
    // a hit records only which entry answered, so warm re-runs do not rewrite every prompt.
    return {
      ...base,
      cacheHit: true,
      request: { cachedAs: base.cacheKey },
      tokensIn: usage.promptTokens,
      tokensOut: usage.completionTokens,
      latencyMs,
    };
  }
}

function toPlain(raw: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
}
