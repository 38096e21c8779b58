/** A request got no reply in time. */
export class BusTimeoutError extends Error {
  override readonly name = 'BusTimeoutError';
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
  ) {
    super(
      `request to "${subject}" timed out after ${timeoutMs} ms: is a responder for it running and healthy? ` +
        'Raise timeoutMs if the work legitimately takes longer.',
    );
  }
}

/** A request was sent to a subject nobody answers. */
export class NoResponderError extends Error {
  override readonly name = 'NoResponderError';
  constructor(readonly subject: string) {
    super(`no responder is listening on "${subject}": start the service that replies on it`);
  }
}

/** The responder's handler threw; its message is carried over. */
export class RemoteHandlerError extends Error {
  override readonly name = 'RemoteHandlerError';
  constructor(
    readonly subject: string,
    readonly remoteMessage: string,
  ) {
    super(`responder on "${subject}" failed: ${remoteMessage}`);
  }
}

/** The bus was used after close(). */
export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
  constructor(operation: string) {
    super(`bus is closed: cannot ${operation}`);
  }
}

/** The bus could not be reached for longer than the caller waits (NATS down or restarting). */
export class BusUnavailableError extends Error {
  override readonly name = 'BusUnavailableError';
  constructor(
    readonly operation: string,
    readonly waitedMs: number,
    cause?: unknown,
  ) {
    super(
      `cannot ${operation}: the NATS server was unreachable for ${waitedMs} ms` +
        (cause === undefined ? '' : ` (${errorMessage(cause)})`) +
        '; check that nats-server runs and NATS_URL points to it',
      { cause },
    );
  }
}

/**
 * Thrown by a work handler that decided to stop retrying: the message goes to the stage's dead
 * letters at once (with `cause` as the reason) and is removed from the queue.
 */
export class GiveUpError extends Error {
  override readonly name = 'GiveUpError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
