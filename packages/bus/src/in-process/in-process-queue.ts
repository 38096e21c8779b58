import type { Stage } from '@precis/contracts';
import { AsyncBuffer } from '../async-buffer.js';
import type { BusData, DeadLetter } from '../types.js';
import type { DeliverySource, RawDelivery } from '../worker-pool.js';

interface Entry {
  id: string;
  runId?: string;
  data: BusData;
  deliveryCount: number;
  /** Bumped on every delivery so a settle from an expired delivery is ignored. */
  token: number;
  timer?: NodeJS.Timeout;
}

export interface QueueLimits {
  ackWaitMs: number;
  maxDeliver: number;
}

/**
 * One stage's durable work queue inside the process: dedupe window on task ids, deliveries with
 * ack-wait (redelivered when neither ack, nak nor heartbeat arrives in time), delayed naks, and a
 * dead-letter list for messages whose last allowed delivery expired. Consumers pull on demand.
 */
export class InProcessQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly ready = new AsyncBuffer<Entry>();
  private readonly seen = new Map<string, number>();
  readonly dead: DeadLetter[] = [];
  limits: QueueLimits = { ackWaitMs: 30_000, maxDeliver: 5 };
  duplicateWindowMs = 120_000;
  private closed = false;

  constructor(readonly stage: Stage) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds a message; false when its id was already seen inside the dedupe window. */
  add(id: string, runId: string | undefined, data: BusData): boolean {
    const now = Date.now();
    // Map keeps insertion order, so expired ids are at the front.
    for (const [seenId, at] of this.seen) {
      if (now - at < this.duplicateWindowMs) break;
      this.seen.delete(seenId);
    }
    if (this.seen.has(id) || this.entries.has(id)) return false;
    this.seen.set(id, now);
    const entry: Entry = { id, runId, data, deliveryCount: 0, token: 0 };
    this.entries.set(id, entry);
    this.ready.push(entry);
    return true;
  }

  /** A pull source for one consumer: hands out ready messages only when asked. */
  openSource(): DeliverySource {
    const stop = new AbortController();
    return {
      next: async (timeoutMs) => {
        for (;;) {
          if (this.closed) return null;
          const got = await this.ready.next(timeoutMs, stop.signal);
          if (!got) return got;
          // Skip entries settled while they waited (e.g. a late ack of an expired delivery).
          if (this.entries.get(got.id) === got) return this.deliver(got);
        }
      },
      stopPulling: async () => {
        stop.abort();
      },
      finish: async () => undefined,
    };
  }

  private deliver(entry: Entry): RawDelivery {
    entry.deliveryCount++;
    const token = ++entry.token;
    const arm = () => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.expire(entry, token), this.limits.ackWaitMs);
      entry.timer.unref();
    };
    arm();
    const current = () => entry.token === token && this.entries.get(entry.id) === entry;
    return {
      delivery: {
        stage: this.stage,
        id: entry.id,
        runId: entry.runId,
        data: entry.data,
        deliveryCount: entry.deliveryCount,
        working: () => {
          if (current()) arm();
        },
      },
      ack: () => {
        // Like JetStream, a late ack still removes the message if it is not finished yet.
        if (this.entries.get(entry.id) !== entry) return;
        if (entry.timer) clearTimeout(entry.timer);
        this.entries.delete(entry.id);
      },
      nak: (delayMs) => {
        if (!current()) return;
        if (entry.timer) clearTimeout(entry.timer);
        entry.token++;
        if (delayMs <= 0) return this.requeue(entry);
        entry.timer = setTimeout(() => this.requeue(entry), delayMs);
        entry.timer.unref();
      },
    };
  }

  private requeue(entry: Entry): void {
    entry.timer = undefined;
    if (this.closed || this.entries.get(entry.id) !== entry) return;
    this.ready.push(entry);
  }

  private expire(entry: Entry, token: number): void {
    if (entry.token !== token || this.entries.get(entry.id) !== entry) return;
    entry.token++;
    if (entry.deliveryCount >= this.limits.maxDeliver) {
      this.entries.delete(entry.id);
      this.dead.push({
        stage: this.stage,
        id: entry.id,
        runId: entry.runId,
        data: entry.data,
        deliveryCount: entry.deliveryCount,
        error: `not acked after ${entry.deliveryCount} deliveries: ack wait expired each time`,
        failedAt: new Date().toISOString(),
      });
      return;
    }
    this.requeue(entry);
  }

  close(): void {
    this.closed = true;
    for (const entry of this.entries.values()) if (entry.timer) clearTimeout(entry.timer);
  }
}
