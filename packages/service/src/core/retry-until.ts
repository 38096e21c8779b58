import type { ServiceLogger } from '../logging/create-logger.js';

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

export interface RetryOptions {
  // What is being reached, for messages: "PostgreSQL at postgres://...".
  what: string;
  // How to fix it, appended to the final error (leave out when the errors already say it).
  hint?: string;
  timeoutMs: number;
  logger: ServiceLogger;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describe(err.errors[0]);
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

// Dependencies started by the same compose file may come up a little later than the service:
// keep trying with a capped backoff until the startup budget is spent, then fail with one
// message saying what could not be reached and how to fix it.
export async function retryUntil<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const deadline = now() + opts.timeoutMs;
  let delay = 250;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - now();
      if (left <= 0) {
        // The last error is in the message; its stack would only repeat the injector's frames.
        throw new StartupError(
          `gave up on ${opts.what} after ${n} attempt(s) in ${opts.timeoutMs} ms (STARTUP_TIMEOUT_MS): ${describe(err)}` +
            (opts.hint ? `. ${opts.hint}` : ''),
        );
      }
      opts.logger.warn({ attempt: n, err: describe(err) }, `${opts.what} not reachable yet; retrying`);
      await sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, 2000);
    }
  }
}
