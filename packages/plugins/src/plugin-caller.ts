import { randomUUID } from 'node:crypto';
import { type DescribeResponse, type SummarizeRequest, SummaryRole } from '@precis/contracts';
import {
  backoffDelayMs,
  computeCacheKey,
  formatCost,
  genericProviderSettings,
  type LimiterRegistry,
  type LlmCallRecord,
  type LlmStore,
  type ModelSpec,
  processLimiters,
} from '@precis/llm';
import { PluginClient, PluginError } from './plugin-client.js';

export interface PluginTarget {
  address: string;
  timeoutMs: number;
  maxRetries: number;
  maxConcurrency: number;
}

// One strategy step for the plugin, without the run and task (they are not part of the cache key).
export type PluginStep = Omit<SummarizeRequest, 'runId' | 'taskId'>;

export interface PluginAnswer {
  text: string;
  producer: string;
  cached: boolean;
  attempts: number;
}

const ZERO = formatCost(0n);
// The plugin's reported cost, as the ledger's exact decimal (10 fractional digits).
const dollars = (usd: number) => (Number.isFinite(usd) && usd > 0 ? usd.toFixed(10) : ZERO);

// Calls plugins for a process the way the model client calls endpoints: at most maxConcurrency
// calls at once per plugin, a deadline per attempt, retries with backoff when the plugin is down,
// slow or overloaded, responses cached by content (plugin name and version + request) and every
// call written to the ledger with the tokens and cost the plugin reports.
export class PluginCaller {
  private readonly clients = new Map<string, PluginClient>();
  private readonly described = new Map<string, Promise<DescribeResponse>>();
  private readonly limiters: LimiterRegistry;

  // limiters: the model client's registry, so a plugin's maxConcurrency holds as a model
  // endpoint's does (for the whole cluster in a service; default: this process's).
  constructor(
    private readonly store: LlmStore,
    private readonly opts: { retryBaseMs?: number; random?: () => number; limiters?: LimiterRegistry } = {},
  ) {
    this.limiters = opts.limiters ?? processLimiters();
  }

  // opaqueErrors (a shared service): a failure is recorded and thrown with the opaque text of
  // PluginError, the detailed one kept in its `detail` for the service's log.
  async summarize(
    target: PluginTarget,
    step: PluginStep,
    call: { runId: string; taskId: string; cache: boolean; opaqueErrors?: boolean },
  ): Promise<PluginAnswer> {
    try {
      return await this.summarizeOnce(target, step, call);
    } catch (err) {
      if (call.opaqueErrors && err instanceof PluginError)
        throw new PluginError(err.opaque, false, err.attempts, { detail: err.message });
      throw err;
    }
  }

  private async summarizeOnce(
    target: PluginTarget,
    step: PluginStep,
    call: { runId: string; taskId: string; cache: boolean; opaqueErrors?: boolean },
  ): Promise<PluginAnswer> {
    const who = await this.describe(target);
    if (who.roles.length > 0 && !who.roles.includes(step.role)) {
      const roles = `${SummaryRole[step.role]}; it serves ${who.roles.map((r) => SummaryRole[r]).join(', ')}`;
      throw new PluginError(
        `plugin ${target.address} (${who.name}) does not serve ${roles}`,
        false,
        undefined,
        {
          opaque: `plugin ${target.address} does not serve ${roles}`,
        },
      );
    }
    const modelId = `${who.name}@${who.version}`;
    const payload = step as unknown as Record<string, unknown>;
    const cacheKey = computeCacheKey({ kind: 'plugin', modelId, params: {}, payload, templateVersion: null });
    const base = ledgerRecord(target, modelId, cacheKey, payload, call);
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    if (call.cache) {
      const hit = (await this.store.findCached(cacheKey))?.body;
      if (hit && typeof hit.text === 'string' && hit.text.trim() !== '') {
        const cached = { cachedAs: cacheKey };
        await this.store.record({
          ...base,
          request: cached,
          cacheHit: true,
          status: 'cached',
          latencyMs: latency(),
          listCostUsd: dollars(Number((hit.usage as { costUsd?: unknown } | undefined)?.costUsd ?? 0)),
        });
        return { text: hit.text, producer: String(hit.producer ?? modelId), cached: true, attempts: 0 };
      }
    }
    const sent: LlmCallRecord = { ...base, id: randomUUID(), status: 'sent' };
    await this.store.recordSent(sent);
    try {
      const request = { ...step, runId: call.runId, taskId: call.taskId };
      const { res, attempts } = await this.attempts(target, request);
      if (res.text.trim() === '')
        throw new PluginError(
          `plugin ${target.address} (${who.name}) returned an empty summary`,
          false,
          attempts,
          {
            opaque: `plugin ${target.address} returned an empty summary`,
          },
        );
      const usage = res.usage ?? { promptTokens: 0, completionTokens: 0, costUsd: 0 };
      await this.store.record({
        ...sent,
        status: 'ok',
        response: { text: res.text, producer: res.producer, usage },
        tokensIn: usage.promptTokens,
        tokensOut: usage.completionTokens,
        costUsd: dollars(usage.costUsd),
        latencyMs: latency(),
        attempts,
      });
      return { text: res.text, producer: res.producer || modelId, cached: false, attempts };
    } catch (err) {
      const e =
        err instanceof PluginError
          ? err
          : new PluginError(`plugin ${target.address}: ${String(err)}`, false, undefined, {
              opaque: `plugin ${target.address}: Summarize failed`,
            });
      const error = `${e.name}: ${call.opaqueErrors ? e.opaque : e.message}`;
      await this.store.record({
        ...sent,
        status: 'error',
        latencyMs: latency(),
        attempts: e.attempts ?? 1,
        error,
      });
      throw e;
    }
  }

  // Who the plugin is, asked once per process (a failed answer is asked again next time).
  describe(target: PluginTarget): Promise<DescribeResponse> {
    let found = this.described.get(target.address);
    if (!found) {
      found = this.withRetries(target, () => this.client(target.address).describe(target.timeoutMs)).then(
        (r) => r.res,
      );
      found.catch(() => this.described.delete(target.address));
      this.described.set(target.address, found);
    }
    return found;
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }

  private attempts(target: PluginTarget, request: SummarizeRequest) {
    return this.withRetries(target, () => this.client(target.address).summarize(request, target.timeoutMs));
  }

  // Each attempt holds one of the plugin's slots; a retryable failure is tried again after a
  // backoff (holding nothing), up to maxRetries more times, then reported with the count.
  private async withRetries<T>(
    target: PluginTarget,
    attempt: () => Promise<T>,
  ): Promise<{ res: T; attempts: number }> {
    const slots = this.limiters.for(pluginEndpoint(target));
    for (let n = 1; ; n++) {
      await slots.acquire(0);
      try {
        return { res: await attempt(), attempts: n };
      } catch (err) {
        const retryable = err instanceof PluginError && err.retryable;
        if (!retryable || n > target.maxRetries) {
          const e =
            err instanceof PluginError
              ? err
              : new PluginError(String(err), false, undefined, {
                  opaque: `plugin ${target.address} unreachable`,
                });
          const suffix = n > 1 ? ` (after ${n} attempts)` : '';
          // The opaque text has no count: how often a failure was worth retrying tells what answered.
          throw new PluginError(`${e.message}${suffix}`, false, n, { opaque: e.opaque });
        }
      } finally {
        slots.release();
      }
      const base = this.opts.retryBaseMs ?? 250;
      await new Promise((r) =>
        setTimeout(r, backoffDelayMs(n, { baseMs: base, maxMs: 20 * base }, this.opts.random)),
      );
    }
  }

  private client(address: string): PluginClient {
    let c = this.clients.get(address);
    if (!c) {
      c = new PluginClient(address);
      this.clients.set(address, c);
    }
    return c;
  }
}

// A plugin call's ledger row before it is sent or answered from the cache.
function ledgerRecord(
  target: PluginTarget,
  modelId: string,
  cacheKey: string,
  request: Record<string, unknown>,
  call: { runId: string; taskId: string },
): LlmCallRecord {
  return {
    runId: call.runId,
    taskId: call.taskId,
    model: `plugin:${target.address}`,
    modelId,
    kind: 'plugin',
    cacheKey,
    cacheHit: false,
    templateVersion: null,
    request,
    response: null,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 0,
    costUsd: ZERO,
    attempts: 0,
    error: null,
    calls: 1,
  };
}

// A plugin as the limiters see an endpoint: its concurrency cap, no request or token rates.
function pluginEndpoint(target: PluginTarget): ModelSpec {
  return {
    ...genericProviderSettings(),
    name: `plugin:${target.address}`,
    kind: 'chat',
    baseURL: `grpc://${target.address}`,
    apiKeyEnv: null,
    modelId: 'summarizer-plugin',
    contextWindow: 0,
    maxConcurrency: target.maxConcurrency,
    requestsPerMinute: null,
    tokensPerMinute: null,
    pricePer1MInput: '0',
    pricePer1MOutput: '0',
    priceInUnits: 0n,
    priceOutUnits: 0n,
    pricePer1MCachedInput: '0',
    priceCachedInUnits: 0n,
    timeoutMs: target.timeoutMs,
    maxRetries: target.maxRetries,
    retryBaseMs: 250,
    retryMaxMs: 5000,
    maxRetryAfterSeconds: 60,
    defaultMaxTokens: 0,
    batch: null,
  };
}
