// How a failed task maps to an API status when someone waits for it (e.g. the gateway's gRPC).
export type TaskErrorCode =
  | 'invalid-argument'
  | 'not-found'
  | 'failed-precondition'
  | 'permission-denied'
  | 'unavailable'
  | 'internal';

// A failure no redelivery can fix (bad input, conflicting state): the task is recorded as
// failed at once, its completion event is published and the message is acked.
export class PermanentTaskError extends Error {
  constructor(
    message: string,
    readonly code: TaskErrorCode = 'internal',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PermanentTaskError';
  }
}

// A task of a kind this service has no handler for. It is recorded as failed and dead-lettered:
// the message is rejected on every delivery so the bus moves it to the stage's dead letters.
export class UnknownTaskKindError extends Error {
  constructor(
    readonly taskId: string,
    readonly stage: string,
    readonly kind: string,
    known: readonly string[],
  ) {
    super(
      `unknown task kind ${JSON.stringify(kind)} for stage ${stage} (task ${taskId}): this service handles ` +
        `${known.length === 0 ? 'no task kinds yet' : `only ${known.join(', ')}`}; ` +
        'the task was marked failed and dead-lettered (check the producer or deploy a service version that knows this kind)',
    );
    this.name = 'UnknownTaskKindError';
  }
}

// The message is not a decodable precis.v1.Task envelope.
export class MalformedTaskError extends Error {
  constructor(
    readonly taskId: string,
    readonly stage: string,
    detail: string,
  ) {
    super(`malformed task ${taskId} on stage ${stage}: ${detail}; the message was dead-lettered`);
    this.name = 'MalformedTaskError';
  }
}
