import { type LlmError, LlmRateLimitError, PermanentModelError } from '../errors.js';
import type { EndpointLimiter } from '../limits/endpoint-limiter.js';
import { sleep } from '../limits/endpoint-limiter.js';
import type { ModelSpec } from '../registry/model-spec.js';
import { backoffDelayMs } from './backoff.js';
import { mapAttemptError } from './map-error.js';
import type { UnusableEndpoints } from './unusable-endpoints.js';

export interface AttemptOutcome<T> {
  value: T;
  attempts: number;
  // Real tokens used, to settle the tokens/min reservation.
  tokens: number;
}

export interface ExecuteOptions<T> {
  spec: ModelSpec;
  limiter: EndpointLimiter;
  estimatedTokens: number;
  secrets: readonly string[];
  signal?: AbortSignal;
  random?: () => number;
  // Refusals seen by this client: checked before each attempt, and told of new ones.
  unusable: UnusableEndpoints;
  // One HTTP attempt; must honour the signal. Returns the value and its real token count.
  attempt: (signal: AbortSignal) => Promise<{ value: T; tokens: number }>;
}

// Runs attempts under the endpoint's limits, retrying retryable failures with backoff
// (at least Retry-After on 429, capped by maxRetryAfterSeconds). Each attempt holds a concurrency
// slot only while its HTTP request is open; backoff sleeps hold nothing. A permanent refusal
// (PermanentModelError) is thrown at once. Throws the last LlmError with `attempts` set.
export async function executeWithRetries<T>(o: ExecuteOptions<T>): Promise<AttemptOutcome<T>> {
  const { spec, limiter } = o;
  for (let attempt = 1; ; attempt++) {
    const ctx = {
      model: spec.name,
      baseURL: spec.baseURL,
      timeoutMs: spec.timeoutMs,
      timedOut: false,
      callerAborted: false,
      secrets: o.secrets,
    };
    let error: LlmError;
    try {
      await limiter.acquire(o.estimatedTokens, o.signal);
    } catch (err) {
      // The cluster's limits live in the database: its outage is not the call's failure.
      if (!o.signal?.aborted) throw err;
      ctx.callerAborted = true;
      const e = mapAttemptError(err, ctx);
      e.attempts = attempt - 1;
      throw e;
    }
    // Checked once the slot is ours, so calls queued behind a refused one send nothing.
    const refused = o.unusable.check(spec);
    if (refused) {
      limiter.release();
      refused.attempts = attempt - 1;
      throw refused;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      ctx.timedOut = true;
      controller.abort(new Error('timeout'));
    }, spec.timeoutMs);
    const onCallerAbort = () => {
      ctx.callerAborted = true;
      controller.abort(o.signal?.reason);
    };
    o.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const { value, tokens } = await o.attempt(controller.signal);
      limiter.settleTokens(tokens - o.estimatedTokens);
      return { value, attempts: attempt, tokens };
    } catch (err) {
      error = mapAttemptError(err, ctx);
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onCallerAbort);
      limiter.release();
    }
    error.attempts = attempt;
    if (error instanceof PermanentModelError) o.unusable.note(spec, error);
    if (!error.retryable || attempt > spec.maxRetries) throw error;
    // Only this call waits; a server asking for more than the registry allows is not obeyed.
    const asked = error instanceof LlmRateLimitError ? error.retryAfterMs : null;
    const retryAfterMs = asked === null ? null : Math.min(asked, spec.maxRetryAfterSeconds * 1000);
    const delay = backoffDelayMs(
      attempt,
      { baseMs: spec.retryBaseMs, maxMs: spec.retryMaxMs, retryAfterMs },
      o.random,
    );
    try {
      await sleep(delay, o.signal);
    } catch (err) {
      ctx.callerAborted = true;
      const e = mapAttemptError(err, ctx);
      e.attempts = attempt;
      throw e;
    }
  }
}
