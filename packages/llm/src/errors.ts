// Typed errors of the LLM client. Messages never contain API keys (see redactSecrets).

export class LlmError extends Error {
  // How many HTTP attempts were made before this error was final (0 = failed before any).
  attempts = 0;
  constructor(
    message: string,
    readonly model: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

// Bad registry or call arguments: fix the configuration, retrying will not help.
export class LlmConfigError extends LlmError {
  constructor(message: string, model = '') {
    super(message, model, false);
  }
}

// A request asks a model for something its provider refuses or ignores (a temperature it does
// not take, logprobs it never returns): refused before anything is sent.
export class ModelCapabilityError extends LlmConfigError {
  constructor(
    model: string,
    // The capability, e.g. "temperature", "logprobs", "top_logprobs".
    readonly capability: string,
    message: string,
  ) {
    super(message, model);
  }
}

// The reply ended at its output budget (finish_reason "length"): never read as a short answer.
export class LlmLengthError extends LlmError {
  constructor(
    message: string,
    model: string,
    readonly budget: number | null,
  ) {
    super(message, model, false);
  }
}

export class LlmHttpError extends LlmError {
  constructor(
    message: string,
    model: string,
    readonly status: number,
    retryable = status === 408 || status === 409 || status >= 500,
  ) {
    super(message, model, retryable);
  }
}

export class LlmRateLimitError extends LlmHttpError {
  constructor(
    message: string,
    model: string,
    // Delay the server asked for (Retry-After / retry-after-ms), if it said.
    readonly retryAfterMs: number | null,
  ) {
    super(message, model, 429, true);
  }
}

export class LlmTimeoutError extends LlmError {
  constructor(
    model: string,
    readonly timeoutMs: number,
  ) {
    super(`model "${model}" did not answer within ${timeoutMs} ms`, model, true);
  }
}

// The server could not be reached or dropped the connection before a response started.
export class LlmConnectionError extends LlmError {
  constructor(message: string, model: string) {
    super(message, model, true);
  }
}

// The server answered 2xx but the body is not a usable response (non-JSON, truncated, wrong shape).
export class LlmResponseError extends LlmError {
  constructor(message: string, model: string) {
    super(message, model, true);
  }
}

// The endpoint refused the request in a way a retry cannot change: 400/422 (the request is
// invalid), 401/403 (the key is wrong or lacks access), 404 (no such model). Never retried.
export class PermanentModelError extends LlmError {
  constructor(
    model: string,
    readonly baseURL: string,
    // The HTTP status, or null when the call was refused before any request (missing key).
    readonly status: number | null,
    // What the server (or the client) said, secrets redacted.
    readonly serverMessage: string,
    message = permanentMessage(model, baseURL, status, serverMessage),
  ) {
    super(message, model, false);
  }
}

// The registry names an API key variable that is not set: refused before any request. A server's
// registry (`setting` set) is named by its setting and entry, never by its file path.
export class MissingApiKeyError extends PermanentModelError {
  constructor(
    model: string,
    baseURL: string,
    readonly variable: string,
    registry: { source: string; setting?: string },
  ) {
    const why = `the environment variable ${variable} is not set`;
    super(
      model,
      baseURL,
      null,
      why,
      registry.setting
        ? `model "${model}" needs an API key but ${why} on the server (apiKeyEnv of registry entry "${model}" in ${registry.setting}); set ${variable} in the environment of the gateway and of every worker, or remove apiKeyEnv for an endpoint without auth`
        : `model "${model}" needs an API key but ${why} (apiKeyEnv in ${registry.source}); set ${variable}, or remove apiKeyEnv for a server without auth`,
    );
  }
}

// A call's reserved cost does not fit under its run's cost limit: nothing was sent.
export class CostLimitError extends LlmError {
  constructor(
    model: string,
    readonly runId: string,
    // Exact decimal USD strings.
    readonly limitUsd: string,
    readonly committedUsd: string,
    readonly reserveUsd: string,
  ) {
    super(`run ${runId}: ${costLimitReason(model, limitUsd, committedUsd, reserveUsd)}`, model, false);
  }

  // The message without the run: for a run's own status, which names the run already.
  get reason(): string {
    return costLimitReason(this.model, this.limitUsd, this.committedUsd, this.reserveUsd);
  }
}

function costLimitReason(model: string, limitUsd: string, committedUsd: string, reserveUsd: string): string {
  return `a call to model "${model}" needs $${usd(reserveUsd)} reserved, but $${usd(committedUsd)} of the run's $${usd(limitUsd)} cost limit is already committed; nothing was sent (raise limits.costUsd to go on)`;
}

// An exact decimal amount without trailing zeros: 0.0006000000 -> 0.0006.
function usd(amount: string): string {
  return amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount;
}

// True for errors that a retry of the same call, or of the task, cannot fix.
export function isPermanentLlmError(err: unknown): boolean {
  return err instanceof PermanentModelError || err instanceof CostLimitError || err instanceof LlmConfigError;
}

function permanentMessage(model: string, baseURL: string, status: number | null, said: string): string {
  const fix =
    status === 401 || status === 403
      ? 'check the API key variable (apiKeyEnv) and its access to this model'
      : status === 404
        ? 'check the model id (model) and baseURL in the model registry'
        : 'the request is invalid for this endpoint; check the model parameters';
  return `model "${model}" at ${baseURL} refused the request with HTTP ${status}: ${said}; not retried: ${fix}`;
}

// The caller's AbortSignal fired.
export class LlmAbortedError extends LlmError {
  constructor(model: string) {
    super(`call to model "${model}" was aborted by the caller`, model, false);
  }
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join('[REDACTED]');
  }
  // Bearer tokens echoed back by a server are redacted even when they are not our key.
  return out.replace(/Bearer\s+[^\s"',]+/gi, 'Bearer [REDACTED]');
}
