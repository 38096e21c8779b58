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
