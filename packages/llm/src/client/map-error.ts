import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import {
  LlmAbortedError,
  LlmConnectionError,
  LlmError,
  LlmHttpError,
  LlmRateLimitError,
  LlmResponseError,
  LlmTimeoutError,
  PermanentModelError,
  redactSecrets,
} from '../errors.js';
import { parseRetryAfterMs } from './backoff.js';

export interface AttemptContext {
  model: string;
  baseURL: string;
  timeoutMs: number;
  timedOut: boolean;
  callerAborted: boolean;
  secrets: readonly string[];
}

// Statuses a retry cannot change: invalid request, bad key, no access, no such model.
const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 422]);

// Turns whatever one attempt threw (SDK errors, fetch/body errors, JSON errors) into a typed
// LlmError whose message is free of secrets.
export function mapAttemptError(err: unknown, ctx: AttemptContext): LlmError {
  const clean = (m: string) => redactSecrets(m, ctx.secrets);
  if (ctx.timedOut) return new LlmTimeoutError(ctx.model, ctx.timeoutMs);
  if (ctx.callerAborted) return new LlmAbortedError(ctx.model);
  if (err instanceof LlmError) return err;
  if (err instanceof APIUserAbortError) return new LlmAbortedError(ctx.model);
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return new LlmConnectionError(
      clean(`cannot reach model "${ctx.model}" (${err.message}${detail})`),
      ctx.model,
    );
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const msg = clean(`model "${ctx.model}" answered HTTP ${err.message}`);
    if (err.status === 429) return new LlmRateLimitError(msg, ctx.model, parseRetryAfterMs(err.headers));
    if (PERMANENT_STATUSES.has(err.status)) {
      const said = (err.error as { message?: unknown } | undefined)?.message;
      const text = typeof said === 'string' ? said : err.message;
      return new PermanentModelError(ctx.model, ctx.baseURL, err.status, clean(text));
    }
    return new LlmHttpError(msg, ctx.model, err.status);
  }
  if (err instanceof SyntaxError) {
    return new LlmResponseError(
      clean(`model "${ctx.model}" returned a body that is not JSON: ${err.message}`),
      ctx.model,
    );
  }
  // fetch body errors ("terminated", socket hang up) after the status line: a truncated response.
  const message = err instanceof Error ? err.message : String(err);
  return new LlmResponseError(clean(`model "${ctx.model}" response failed mid-body: ${message}`), ctx.model);
}
