// Failures a use case reports in the caller's terms, whatever carries the call. Each edge maps
// the kind once: the gateway to a gRPC status and an HTTP status, the CLI to its exit code.
export type DomainErrorKind =
  | 'not-found'
  | 'invalid-input'
  | 'conflict'
  | 'precondition'
  | 'permission'
  | 'limit'
  | 'unavailable'
  | 'deadline'
  | 'internal';

export const DOMAIN_ERROR_KINDS: readonly DomainErrorKind[] = [
  'not-found',
  'invalid-input',
  'conflict',
  'precondition',
  'permission',
  'limit',
  'unavailable',
  'deadline',
  'internal',
];

// The message is the whole answer a caller gets: what was wrong, where, and what to do.
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

// What the caller named does not exist (a run, a dataset, a document, a key).
export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
}

// Where bad input sits: a file (and line), a request field or a task, as far as it is known.
export interface InputLocation {
  file?: string;
  line?: number;
  field?: string;
  task?: string;
}

// The caller's input is wrong; fixing the input (not retrying) is what helps.
export class InvalidInputError extends DomainError {
  readonly kind = 'invalid-input';

  constructor(
    message: string,
    readonly location: InputLocation = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

// What the caller would create already exists (a key name, a dataset).
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

// The system is not in a state that allows the operation (a finished run, a model that failed
// its preflight); it may once that state changes.
export class PreconditionError extends DomainError {
  readonly kind = 'precondition';
}

// The caller may not do this, or the server may not touch the file it named.
export class PermissionError extends DomainError {
  readonly kind = 'permission';
}

// A bound was reached (calls held at once, a size): retry later or ask for less.
export class LimitError extends DomainError {
  readonly kind = 'limit';
}

// Transient: the same call may succeed later or on another replica.
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
}

// The work did not finish in the time allowed; it may still be going on.
export class DeadlineError extends DomainError {
  readonly kind = 'deadline';
}

// An internal failure whose message is already safe to show: it names a log reference, not the
// details (hosts, SQL), which stay in the log.
export class InternalError extends DomainError {
  readonly kind = 'internal';
}
