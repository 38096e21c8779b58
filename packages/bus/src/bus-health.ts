import type { Stage } from '@precis/contracts';
import { errorMessage } from './errors.js';
import type { BusOperation, BusProblem } from './types.js';

/** A stage operation is a problem once it has failed for this long with no success in between. */
export const DEFAULT_FAILING_AFTER_MS = 20_000;
/** ...and stops being one when nothing tried it for this long (nobody publishes any more). */
export const DEFAULT_FORGET_AFTER_MS = 60_000;

const VERBS: Record<BusOperation, string> = {
  publish: 'publishing',
  consume: 'consuming',
  read: 'reading the queue',
};

interface Track {
  failingSince: number | null;
  lastFailure: number;
  error: string;
}

export interface BusHealthOptions {
  failingAfterMs?: number;
  forgetAfterMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * What each stage's publishes, pulls and queue reads did lately, recorded as they happen so a
 * readiness probe asks without a round trip. "Keeps failing" = failures for at least
 * `failingAfterMs` with no success in between, the last one within `forgetAfterMs`.
 */
export class BusHealth {
  private readonly tracks = new Map<string, Track>();
  private readonly failingAfterMs: number;
  private readonly forgetAfterMs: number;
  private readonly now: () => number;

  constructor(
    private readonly streamOf: (stage: Stage) => string,
    opts: BusHealthOptions = {},
  ) {
    this.failingAfterMs = opts.failingAfterMs ?? DEFAULT_FAILING_AFTER_MS;
    this.forgetAfterMs = opts.forgetAfterMs ?? DEFAULT_FORGET_AFTER_MS;
    if (!(this.failingAfterMs >= 0) || !(this.forgetAfterMs > 0))
      throw new RangeError(
        `bus health: need failingAfterMs >= 0 and forgetAfterMs > 0 (got ${this.failingAfterMs} and ${this.forgetAfterMs})`,
      );
    this.now = opts.now ?? Date.now;
  }

  succeeded(stage: Stage, op: BusOperation): void {
    const t = this.tracks.get(`${stage}/${op}`);
    if (t) t.failingSince = null;
  }

  failed(stage: Stage, op: BusOperation, error: unknown): void {
    const key = `${stage}/${op}`;
    const now = this.now();
    const t = this.tracks.get(key) ?? { failingSince: null, lastFailure: 0, error: '' };
    // A failure after a long silence starts a new spell: the old one says nothing about now.
    if (t.failingSince === null || now - t.lastFailure > this.forgetAfterMs) t.failingSince = now;
    t.lastFailure = now;
    t.error = errorMessage(error);
    this.tracks.set(key, t);
  }

  /** Stage operations that keep failing, longest first. */
  problems(): BusProblem[] {
    const now = this.now();
    const out: BusProblem[] = [];
    for (const [key, t] of this.tracks) {
      if (t.failingSince === null || now - t.lastFailure > this.forgetAfterMs) continue;
      const failingMs = now - t.failingSince;
      if (failingMs < this.failingAfterMs) continue;
      const [stage, op] = key.split('/') as [Stage, BusOperation];
      const stream = this.streamOf(stage);
      out.push({
        stage,
        operation: op,
        stream,
        error: t.error,
        since: new Date(t.failingSince),
        failingMs,
        summary: `${stage} queue (stream ${stream}): ${VERBS[op]} keeps failing: ${t.error}`,
      });
    }
    return out.sort((a, b) => b.failingMs - a.failingMs);
  }
}
