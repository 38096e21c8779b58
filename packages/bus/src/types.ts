import type { Stage } from '@precis/contracts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A payload on the bus: raw bytes are sent as they are, anything else as JSON. */
export type BusData = Uint8Array | JsonValue;

/** One unit of work for a stage's durable queue. `id` is the task id (also the dedupe key). */
export interface WorkMessage<T extends BusData = BusData> {
  id: string;
  runId?: string;
  data: T;
}

export interface EnqueueResult {
  id: string;
  /** True when the queue already held a message with this id inside the dedupe window. */
  duplicate: boolean;
}

export interface EnqueueManyResult {
  published: number;
  duplicates: number;
}

/** A delivered work message, as seen by a handler. */
export interface Delivery<T extends BusData = BusData> {
  stage: Stage;
  id: string;
  runId?: string;
  data: T;
  /** 1 on the first delivery, 2 on the first redelivery, ... */
  deliveryCount: number;
  /** Heartbeat: resets the ack-wait timer so a long handler keeps its message. */
  working(): void;
}

export type WorkHandler<T extends BusData = BusData> = (delivery: Delivery<T>) => Promise<void>;

/**
 * Batch handler: resolve to ack every message of the batch (after the batch's transaction committed).
 * Throwing fails the whole batch; returning `failed` fails only those task ids.
 */
export type BatchHandler<T extends BusData = BusData> = (deliveries: Delivery<T>[]) => Promise<BatchResult>;

// `void` so a plain `async (batch) => { ... }` handler type-checks; an outcome is optional.
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are the common case
export type BatchResult = void | BatchOutcome;

export interface BatchOutcome {
  failed: { id: string; error: unknown }[];
}

export interface ConsumeOptions {
  /** Max handlers running at once in this process (default 16). Nothing more than that is pulled. */
  maxInFlight?: number;
  /** Server-side (or queue-side) redelivery timeout when no ack/heartbeat arrives (default 30 s). */
  ackWaitMs?: number;
  /**
   * Deliveries before a failing message goes to the dead-letter subject (default 5). `Infinity`:
   * never by count, only when the handler throws GiveUpError (handlers that count attempts
   * themselves, e.g. in the database).
   */
  maxDeliver?: number;
  /** Delay before redelivery after a handler error, indexed by failed attempt (last value repeats). */
  backoffMs?: number[];
  /**
   * Errors that say the infrastructure is unavailable (database, bus), not that the message is
   * bad, e.g. `isBusUnavailableError`. Such a failure is redelivered after `transientBackoffMs`
   * and is never dead-lettered nor counted toward `maxDeliver` (counted per process: a
   * redelivery handled by another process does not know it). Setting it lifts the server's own
   * delivery limit, so a message whose worker died is redelivered until a handler settles it.
   */
  isTransient?: (error: unknown) => boolean;
  /** Delay before redelivery after a transient failure, by delivery (last value repeats; ±25 % jitter). */
  transientBackoffMs?: number[];
  /** Send `working()` automatically every ackWait/3 while a handler runs (default true). */
  autoHeartbeat?: boolean;
  /** Called when a handler fails (for logging); never affects redelivery. */
  onError?: (error: unknown, delivery: Delivery) => void;
}

export interface ConsumeBatchOptions extends Omit<ConsumeOptions, 'maxInFlight'> {
  /** Largest batch handed to the handler (default 100). */
  maxBatch?: number;
  /** How long to wait for a batch to fill once its first message arrived (default 20 ms). */
  maxWaitMs?: number;
  /** Batches processed at once (default 2). */
  maxInFlightBatches?: number;
}

export interface ConsumerHandle {
  /** Stops pulling, waits for in-flight handlers to finish and ack, then resolves. */
  stop(): Promise<void>;
}

export interface DeadLetter {
  stage: Stage;
  id: string;
  runId?: string;
  data: BusData;
  deliveryCount: number;
  error: string;
  failedAt: string;
}

export interface RequestOptions {
  timeoutMs?: number;
  runId?: string;
}

export type ReplyHandler = (data: BusData) => Promise<BusData> | BusData;
export type EventHandler = (data: BusData) => void | Promise<void>;

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface QueueOptions {
  /** Dedupe window for task ids (default 2 min). */
  duplicateWindowMs?: number;
}

/** What a stage's queue is used for: publishing tasks, pulling them, reading its state. */
export type BusOperation = 'publish' | 'consume' | 'read';

/** A stage operation that keeps failing (see `Bus.problems()`). */
export interface BusProblem {
  stage: Stage;
  operation: BusOperation;
  /** The stage's stream (JetStream) or queue name. */
  stream: string;
  /** The last failure's message. */
  error: string;
  /** First failure since the last success. */
  since: Date;
  failingMs: number;
  /** One line with the stage, stream, operation and error; stable while the error is the same. */
  summary: string;
}

export interface Bus {
  readonly kind: 'nats' | 'in-process';
  /** Declares the stage's work queue (and the dead-letter store); idempotent. */
  ensureQueue(stage: Stage, opts?: QueueOptions): Promise<void>;
  /** Publishes one task and waits for the store's ack. */
  enqueue(stage: Stage, msg: WorkMessage): Promise<EnqueueResult>;
  /** Publishes many tasks with up to `concurrency` (default 256) publishes in flight. */
  enqueueMany(
    stage: Stage,
    msgs: Iterable<WorkMessage>,
    opts?: { concurrency?: number },
  ): Promise<EnqueueManyResult>;
  consume<T extends BusData = BusData>(
    stage: Stage,
    handler: WorkHandler<T>,
    opts?: ConsumeOptions,
  ): Promise<ConsumerHandle>;
  consumeBatch<T extends BusData = BusData>(
    stage: Stage,
    handler: BatchHandler<T>,
    opts?: ConsumeBatchOptions,
  ): Promise<ConsumerHandle>;
  /** Messages waiting in the stage's queue (not yet delivered or awaiting redelivery). */
  pending(stage: Stage): Promise<number>;
  deadLetters(stage: Stage): Promise<DeadLetter[]>;
  request(subject: string, data: BusData, opts?: RequestOptions): Promise<BusData>;
  reply(subject: string, handler: ReplyHandler): Promise<Subscription>;
  publish(subject: string, data: BusData): Promise<void>;
  subscribe(subject: string, handler: EventHandler): Promise<Subscription>;
  /** False while the bus server is unreachable (the connection is being re-established). */
  isConnected(): boolean;
  /**
   * Stage operations of this process that keep failing while connected (e.g. a stream that cannot
   * be declared again), from what they did lately: no round trip.
   */
  problems(): BusProblem[];
  /** Stops every consumer (graceful), then drains and closes the connection. */
  close(): Promise<void>;
}
