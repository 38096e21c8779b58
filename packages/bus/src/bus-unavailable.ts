import {
  ClosedConnectionError,
  ConnectionError,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { BusUnavailableError } from './errors.js';

// Causes are followed this deep (wrapped errors, AggregateError members).
const MAX_DEPTH = 6;

function matches(err: unknown, depth: number): boolean {
  if (!(err instanceof Error) || depth > MAX_DEPTH) return false;
  if (
    err instanceof BusUnavailableError ||
    err instanceof ConnectionError ||
    err instanceof ClosedConnectionError ||
    err instanceof TimeoutError ||
    err instanceof NoRespondersError
  ) {
    return true;
  }
  if (err instanceof RequestError && (err.isNoResponders() || err.cause instanceof TimeoutError)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => matches(e, depth + 1))) return true;
  return matches(err.cause, depth + 1);
}

/**
 * True when the error says the bus (NATS or JetStream) was unreachable, not that the work was
 * wrong: a connection lost or closed, a JetStream API or publish that timed out or found no
 * responder (JetStream still starting). Such a failure says nothing about the task, so it
 * should be retried later without counting as one of its attempts. Follows `cause` chains.
 */
export function isBusUnavailableError(err: unknown): boolean {
  return matches(err, 0);
}
