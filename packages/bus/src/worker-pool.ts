import { errorMessage, GiveUpError } from './errors.js';
import type {
  BatchHandler,
  ConsumeBatchOptions,
  ConsumeOptions,
  ConsumerHandle,
  Delivery,
  WorkHandler,
} from './types.js';

/** A delivered message plus the transport's settle operations. */
export interface RawDelivery {
  delivery: Delivery;
  ack(): void;
  nak(delayMs: number): void;
}

/** Where a worker pool pulls from; both bus implementations provide one per consumer. */
export interface DeliverySource {
  /** Next delivery; `null` once the source ended; `undefined` when `timeoutMs` elapsed first. */
  next(timeoutMs?: number): Promise<RawDelivery | null | undefined>;
  /** Stop asking for new messages; next() then yields what was already pulled, then `null`. */
  stopPulling(): Promise<void>;
  /** Called after every in-flight handler settled (e.g. flush acks to the server). */
  finish(): Promise<void>;
}

/** Stores a message that failed its last allowed delivery, with the reason. */
export type DeadLetterSink = (raw: RawDelivery, error: unknown) => Promise<void>;

export interface ResolvedConsumeOptions {
  ackWaitMs: number;
  // Infinity: only the handler gives up (GiveUpError).
  maxDeliver: number;
  // What the server enforces on its own (-1: unlimited; the pool then decides alone).
  serverMaxDeliver: number;
  backoffMs: number[];
  transientBackoffMs: number[];
  isTransient?: (error: unknown) => boolean;
  autoHeartbeat: boolean;
  onError?: (error: unknown, delivery: Delivery) => void;
}

export const DEFAULT_ACK_WAIT_MS = 30_000;
export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_BACKOFF_MS = [1_000, 5_000, 15_000, 30_000];
export const DEFAULT_TRANSIENT_BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];

function delays(name: string, list: number[]): number[] {
  if (list.length === 0 || list.some((ms) => !(ms >= 0))) {
    throw new RangeError(`consume option ${name} must be a non-empty list of delays >= 0 (got [${list}])`);
  }
  return list;
}

export function resolveConsumeOptions(
  opts: ConsumeOptions | ConsumeBatchOptions = {},
): ResolvedConsumeOptions {
  const ackWaitMs = opts.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
  const maxDeliver = opts.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoffMs = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (!(ackWaitMs >= 100))
    throw new RangeError(`consume option ackWaitMs must be >= 100 ms (got ${ackWaitMs})`);
  if (!(Number.isInteger(maxDeliver) || maxDeliver === Number.POSITIVE_INFINITY) || maxDeliver < 1) {
    throw new RangeError(
      `consume option maxDeliver must be a positive integer or Infinity (got ${maxDeliver})`,
    );
  }
  // Deliveries that failed transiently must not be cut off by the server's own count.
  const unlimited = maxDeliver === Number.POSITIVE_INFINITY || opts.isTransient !== undefined;
  return {
    ackWaitMs,
    maxDeliver,
    serverMaxDeliver: unlimited ? -1 : maxDeliver,
    backoffMs: delays('backoffMs', backoffMs),
    transientBackoffMs: delays('transientBackoffMs', opts.transientBackoffMs ?? DEFAULT_TRANSIENT_BACKOFF_MS),
    isTransient: opts.isTransient,
    autoHeartbeat: opts.autoHeartbeat ?? true,
    onError: opts.onError,
  };
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`consume option ${name} must be a positive integer (got ${value})`);
  return value;
}

/** Bounded pool of concurrent slots; waiters are released in order. */
class Slots {
  private free: number;
  private waiters: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
  /** Wakes every waiter (used on stop; callers re-check the stopping flag). */
  wakeAll(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/**
 * Runs handlers over a delivery source: pulls only when a slot is free, acks after the handler
 * resolved, naks with backoff on error, dead-letters on the last allowed delivery, and keeps
 * long handlers' messages alive with heartbeats.
 */
class WorkerPool {
  private stopping = false;
  private stopped?: Promise<void>;
  private readonly inFlight = new Set<RawDelivery>();
  private readonly running = new Set<Promise<void>>();
  private heartbeat?: NodeJS.Timeout;
  private loop?: Promise<void>;
  // Transient failures seen here per message id: they are not attempts (exact in one process).
  private readonly transient = new Map<string, number>();

  constructor(
    private readonly source: DeliverySource,
    private readonly opts: ResolvedConsumeOptions,
    private readonly deadLetter: DeadLetterSink,
    private readonly slots: Slots,
  ) {
    if (opts.autoHeartbeat) {
      // A third of ack-wait leaves room for two missed beats before the server redelivers.
      this.heartbeat = setInterval(
        () => {
          for (const raw of this.inFlight) raw.delivery.working();
        },
        Math.max(50, Math.floor(opts.ackWaitMs / 3)),
      );
      this.heartbeat.unref();
    }
  }

  startSingle(handler: WorkHandler): void {
    this.loop = (async () => {
      while (!this.stopping) {
        await this.slots.acquire();
        if (this.stopping) break;
        const raw = await this.source.next();
        if (!raw) break;
        if (this.stopping) {
          raw.nak(0);
          break;
        }
        this.track(this.runOne(handler, raw));
      }
    })();
  }

  startBatch(handler: BatchHandler, maxBatch: number, maxWaitMs: number): void {
    this.loop = (async () => {
      while (!this.stopping) {
        await this.slots.acquire();
        if (this.stopping) break;
        const first = await this.source.next();
        if (!first) break;
        if (this.stopping) {
          first.nak(0);
          break;
        }
        const batch = [first];
        const deadline = Date.now() + maxWaitMs;
        while (batch.length < maxBatch && !this.stopping) {
          const raw = await this.source.next(Math.max(0, deadline - Date.now()));
          if (!raw) break;
          batch.push(raw);
        }
        this.track(this.runBatch(handler, batch));
      }
    })();
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      this.slots.wakeAll();
      await this.source.stopPulling();
      await this.loop;
      // Messages pulled but never started go back at once so other workers can take them.
      for (let raw = await this.source.next(); raw; raw = await this.source.next()) raw.nak(0);
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      if (this.heartbeat) clearInterval(this.heartbeat);
      await this.source.finish();
    })();
    return this.stopped;
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => {
      this.running.delete(p);
      this.slots.release();
    });
  }

  private async runOne(handler: WorkHandler, raw: RawDelivery): Promise<void> {
    this.inFlight.add(raw);
    try {
      await handler(raw.delivery);
      this.transient.delete(raw.delivery.id);
      raw.ack();
    } catch (err) {
      await this.fail(raw, err);
    } finally {
      this.inFlight.delete(raw);
    }
  }

  private async runBatch(handler: BatchHandler, batch: RawDelivery[]): Promise<void> {
    for (const raw of batch) this.inFlight.add(raw);
    try {
      const outcome = await handler(batch.map((r) => r.delivery));
      const failed = new Map((outcome?.failed ?? []).map((f) => [f.id, f.error]));
      for (const raw of batch) {
        if (failed.has(raw.delivery.id)) await this.fail(raw, failed.get(raw.delivery.id));
        else {
          this.transient.delete(raw.delivery.id);
          raw.ack();
        }
      }
    } catch (err) {
      await Promise.all(batch.map((raw) => this.fail(raw, err)));
    } finally {
      for (const raw of batch) this.inFlight.delete(raw);
    }
  }

  private async fail(raw: RawDelivery, err: unknown): Promise<void> {
    const { delivery } = raw;
    try {
      this.opts.onError?.(err, delivery);
    } catch {
      // a failing error reporter must not change what happens to the message
    }
    if (this.opts.isTransient?.(err) && !(err instanceof GiveUpError)) return this.retryLater(raw);
    const attempts = delivery.deliveryCount - (this.transient.get(delivery.id) ?? 0);
    if (err instanceof GiveUpError || attempts >= this.opts.maxDeliver) {
      try {
        await this.deadLetter(raw, err);
        this.transient.delete(delivery.id);
        raw.ack();
        return;
      } catch (dlErr) {
        this.opts.onError?.(
          new Error(`task ${delivery.id}: could not store dead letter: ${errorMessage(dlErr)}`),
          delivery,
        );
      }
    }
    const { backoffMs } = this.opts;
    raw.nak(backoffMs[Math.min(Math.max(attempts, 1) - 1, backoffMs.length - 1)] ?? 0);
  }

  // The infrastructure failed, not the task: redeliver later, with jitter so the backlog does
  // not come back all at once, and never count it as an attempt.
  private retryLater(raw: RawDelivery): void {
    const { id, deliveryCount } = raw.delivery;
    const seen = (this.transient.get(id) ?? 0) + 1;
    // Re-inserted so the map's order is by last use: the oldest entry is dropped first.
    this.transient.delete(id);
    this.transient.set(id, seen);
    if (this.transient.size > 10_000) this.transient.delete(this.transient.keys().next().value as string);
    const list = this.opts.transientBackoffMs;
    const base = list[Math.min(deliveryCount - 1, list.length - 1)] ?? 0;
    raw.nak(base * (0.75 + Math.random() * 0.5));
  }
}

export function startWorkerPool(
  source: DeliverySource,
  handler: WorkHandler,
  opts: ConsumeOptions,
  deadLetter: DeadLetterSink,
): ConsumerHandle {
  const pool = new WorkerPool(
    source,
    resolveConsumeOptions(opts),
    deadLetter,
    new Slots(positiveInt('maxInFlight', opts.maxInFlight ?? 16)),
  );
  pool.startSingle(handler);
  return { stop: () => pool.stop() };
}

export function startBatchWorkerPool(
  source: DeliverySource,
  handler: BatchHandler,
  opts: ConsumeBatchOptions,
  deadLetter: DeadLetterSink,
): ConsumerHandle {
  const maxBatch = positiveInt('maxBatch', opts.maxBatch ?? 100);
  const pool = new WorkerPool(
    source,
    resolveConsumeOptions(opts),
    deadLetter,
    new Slots(positiveInt('maxInFlightBatches', opts.maxInFlightBatches ?? 2)),
  );
  pool.startBatch(handler, maxBatch, opts.maxWaitMs ?? 20);
  return { stop: () => pool.stop() };
}

/** How many messages a source may hold (in handlers plus pulled ahead) for the given options. */
export function pullLimit(opts: ConsumeOptions | ConsumeBatchOptions, batch: boolean): number {
  if (batch) {
    const b = opts as ConsumeBatchOptions;
    return (b.maxBatch ?? 100) * (b.maxInFlightBatches ?? 2);
  }
  return (opts as ConsumeOptions).maxInFlight ?? 16;
}
