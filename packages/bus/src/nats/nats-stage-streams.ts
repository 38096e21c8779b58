import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import { RequestError } from '@nats-io/transport-node';
import type { Stage } from '@precis/contracts';
import type { BusHealth } from '../bus-health.js';
import { BusClosedError } from '../errors.js';
import type { BusOperation } from '../types.js';
import type { ConnectionWatch } from './nats-link.js';
import { ensureStageStreams, type NatsNames } from './nats-queues.js';

// A publish whose Nats-Expected-Stream names another stream than the one storing the subject.
const STREAM_NOT_MATCH = 10060;

// Follows `cause` a few levels (the client wraps a no-responders reply).
function noResponders(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if (err instanceof RequestError && err.isNoResponders()) return true;
  return noResponders(err.cause, depth + 1);
}

/**
 * True when the stage's stream is not where it should be: deleted (not found; a publish on its
 * subject finds no responder), or its subject now stored by another stream.
 */
export function isStreamGone(err: unknown): boolean {
  if (err instanceof JetStreamApiError)
    return err.code === JetStreamApiCodes.StreamNotFound || err.code === STREAM_NOT_MATCH;
  return noResponders(err);
}

/**
 * The stages' streams of one bus: declared once (then cached), declared again when an operation
 * finds its stream gone, and every operation's outcome recorded in the bus's health.
 */
export class StageStreams {
  private readonly ensured = new Map<Stage, Promise<void>>();

  constructor(
    private readonly link: ConnectionWatch,
    private readonly jsm: () => Promise<JetStreamManager>,
    private readonly names: NatsNames,
    readonly health: BusHealth,
  ) {}

  ensure(stage: Stage, duplicateWindowMs?: number): Promise<void> {
    let p = this.ensured.get(stage);
    if (!p || duplicateWindowMs !== undefined) {
      p = this.link.run(`declare queue ${stage}`, async () =>
        ensureStageStreams(await this.jsm(), this.names, stage, duplicateWindowMs),
      );
      p.catch(() => this.ensured.delete(stage));
      this.ensured.set(stage, p);
    }
    return p;
  }

  /** The next ensure() asks the server again. */
  forget(stage?: Stage): void {
    if (stage) this.ensured.delete(stage);
    else this.ensured.clear();
  }

  /**
   * Runs `fn` on the stage's stream, waiting out an outage like any bus call; when the stream is
   * gone it is declared again and `fn` retried, so a deleted stream heals on the next use.
   */
  async use<T>(stage: Stage, op: BusOperation, what: string, fn: () => Promise<T>): Promise<T> {
    try {
      let declared = this.ensure(stage);
      await declared;
      const result = await this.link.run(what, async () => {
        try {
          return await fn();
        } catch (err) {
          if (!this.link.connected || !isStreamGone(err)) throw err;
          // Concurrent calls that found it gone share one declaration.
          if (this.ensured.get(stage) === declared) this.forget(stage);
          declared = this.ensure(stage);
          await declared;
          return await fn();
        }
      });
      this.health.succeeded(stage, op);
      return result;
    } catch (err) {
      this.failed(stage, op, err);
      throw err;
    }
  }

  // An outage is the connection's to report (readiness says "disconnected"), not a stage's.
  failed(stage: Stage, op: BusOperation, err: unknown): void {
    if (this.link.connected && !(err instanceof BusClosedError)) this.health.failed(stage, op, err);
  }
}
