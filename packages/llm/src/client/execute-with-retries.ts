import { LlmError, LlmRateLimitError } from '../errors.js';
import type { EndpointLimiter } from '../limits/endpoint-limiter.js';
import { sleep } from '../limits/endpoint-limiter.js';
import type { ModelSpec } from '../registry/model-spec.js';
import { backoffDelayMs } from './backoff.js';
import { mapAttemptError } from './map-error.js';

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
  // One HTTP attempt; must honour the signal. Returns the value and its real token count.
  attempt: (signal: AbortSignal) => Promise<{ value: T; tokens: number }>;
}

// Runs attempts under the endpoint's limits, retrying retryable failures with backoff
// (at least Retry-After on 429). Each attempt holds a concurrency slot only while its HTTP
// request is open; backoff sleeps hold nothing. Throws the last LlmError with `attempts` set.
export async function executeWithRetries<T>(o: ExecuteOptions<T>): Promise<AttemptOutcome<T>> {
  const { spec, limiter } = o;
  for (let attempt = 1; ; attempt++) {
    const ctx = {
      model: spec.name,
      timeoutMs: spec.timeoutMs,
      timedOut: false,
      callerAborted: false,
      secrets: o.secrets,
    };
    let error: LlmError;
    try {
      await limiter.acquire(o.estimatedTokens, o.signal);
    } catch (err) {
      ctx.callerAborted = true;
      const e = mapAttemptError(err, ctx);
      e.attempts = attempt - 1;
      throw e;
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
    if (!error.retryable || attempt > spec.maxRetries) throw error;
    const retryAfterMs = error instanceof LlmRateLimitError ? error.retryAfterMs : null;
    // A 429 with Retry-After pauses every caller of this endpoint, not only this one.
    if (retryAfterMs !== null) limiter.pause(Date.now() + retryAfterMs);
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
