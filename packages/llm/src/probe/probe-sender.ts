import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { backoffDelayMs, parseRetryAfterMs } from '../client/backoff.js';
import { redactSecrets } from '../errors.js';
import { sleep } from '../limits/endpoint-limiter.js';
import { Semaphore } from '../limits/semaphore.js';
import type { ModelSpec } from '../registry/model-spec.js';

// ok: the body; refused: HTTP 400/422, the probed field is not taken; unusable: the model
// cannot be probed at all (bad key, no such model, still failing after the retries).
export type ProbeOutcome =
  | { kind: 'ok'; body: Record<string, unknown> }
  | { kind: 'refused'; message: string }
  | { kind: 'unusable'; message: string };

// Probes are cheap and few: a couple of retries is enough to ride out a 429 or a 5xx.
export const PROBE_RETRIES = 2;

const REFUSED = new Set([400, 422]);
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504]);

type Failure = { outcome: ProbeOutcome; retryAfterMs: number | null; retryable: boolean };

// Sends one model's probes with the SDK directly (unshaped), at most maxConcurrency at once.
export class ProbeSender {
  requests = 0;
  private readonly slots: Semaphore;

  constructor(
    private readonly spec: ModelSpec,
    private readonly sdk: OpenAI,
    private readonly secrets: readonly string[],
    private readonly random: () => number = Math.random,
  ) {
    this.slots = new Semaphore(spec.maxConcurrency);
  }

  chat(body: Record<string, unknown>): Promise<ProbeOutcome> {
    return this.send(() =>
      this.sdk.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {
        timeout: this.spec.timeoutMs,
      }),
    );
  }

  embed(body: Record<string, unknown>): Promise<ProbeOutcome> {
    return this.send(() =>
      this.sdk.embeddings.create(body as unknown as OpenAI.EmbeddingCreateParams, {
        timeout: this.spec.timeoutMs,
      }),
    );
  }

  private async send(call: () => Promise<unknown>): Promise<ProbeOutcome> {
    for (let attempt = 1; ; attempt++) {
      await this.slots.acquire();
      let failure: Failure;
      try {
        this.requests++;
        const body = await call();
        if (body && typeof body === 'object') return { kind: 'ok', body: body as Record<string, unknown> };
        failure = this.fail(`returned a body that is not JSON (${typeof body})`, false);
      } catch (err) {
        failure = this.classify(err);
      } finally {
        this.slots.release();
      }
      if (!failure.retryable || attempt > PROBE_RETRIES) return failure.outcome;
      const asked = failure.retryAfterMs;
      const retryAfterMs = asked === null ? null : Math.min(asked, this.spec.maxRetryAfterSeconds * 1000);
      const { retryBaseMs: baseMs, retryMaxMs: maxMs } = this.spec;
      await sleep(backoffDelayMs(attempt, { baseMs, maxMs, retryAfterMs }, this.random));
    }
  }

  private classify(err: unknown): Failure {
    if (err instanceof APIError && typeof err.status === 'number') {
      const said = (err.error as { message?: unknown } | undefined)?.message;
      const text = `HTTP ${err.status}: ${typeof said === 'string' ? said : err.message}`;
      if (REFUSED.has(err.status))
        return { outcome: this.clean('refused', text), retryAfterMs: null, retryable: false };
      const retryable = RETRYABLE.has(err.status);
      const tries = retryable ? ` (after ${PROBE_RETRIES + 1} tries)` : '';
      return { ...this.fail(`${text}${tries}`, retryable), retryAfterMs: parseRetryAfterMs(err.headers) };
    }
    // A tiny request left unanswered for timeoutMs: waiting again would only triple the wait.
    if (err instanceof APIConnectionTimeoutError)
      return this.fail(`no answer within ${this.spec.timeoutMs} ms (timeoutMs)`, false);
    if (err instanceof APIConnectionError) {
      const cause = (err as { cause?: unknown }).cause;
      const detail = cause instanceof Error ? `: ${cause.message}` : '';
      return this.fail(`cannot reach ${this.spec.baseURL} (${err.message}${detail})`, true);
    }
    return this.fail(err instanceof Error ? err.message : String(err), false);
  }

  private fail(message: string, retryable: boolean): Failure {
    return { outcome: this.clean('unusable', message), retryAfterMs: null, retryable };
  }

  private clean(kind: 'refused' | 'unusable', message: string): ProbeOutcome {
    return { kind, message: redactSecrets(message, this.secrets) };
  }
}
