import type { Stage } from '@precis/contracts';
import { cloneData } from '../codec.js';
import {
  BusClosedError,
  BusTimeoutError,
  errorMessage,
  NoResponderError,
  RemoteHandlerError,
} from '../errors.js';
import type {
  BatchHandler,
  Bus,
  BusData,
  BusProblem,
  ConsumeBatchOptions,
  ConsumeOptions,
  ConsumerHandle,
  DeadLetter,
  EnqueueManyResult,
  EnqueueResult,
  EventHandler,
  QueueOptions,
  ReplyHandler,
  RequestOptions,
  Subscription,
  WorkHandler,
  WorkMessage,
} from '../types.js';
import {
  type DeadLetterSink,
  resolveConsumeOptions,
  startBatchWorkerPool,
  startWorkerPool,
} from '../worker-pool.js';
import { InProcessQueue } from './in-process-queue.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** NATS subject matching: `*` matches one token, a final `>` one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (pattern === subject) return true;
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return i === p.length - 1 && s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

export interface InProcessBusOptions {
  /** Reports errors that have no caller to throw to (event handlers). */
  onError?: (error: unknown) => void;
}

export function createInProcessBus(opts: InProcessBusOptions = {}): InProcessBus {
  return new InProcessBus(opts);
}

/**
 * The bus for embedded mode: same semantics as the JetStream bus (durable-style queues with
 * ack-wait, backoff, max-deliver and dead letters; request/reply; fan-out events), in memory.
 * Payloads are copied on the way through, as they would be over the wire.
 */
export class InProcessBus implements Bus {
  readonly kind = 'in-process' as const;
  private readonly queues = new Map<Stage, InProcessQueue>();
  private readonly responders = new Map<string, ReplyHandler[]>();
  private readonly listeners = new Map<string, Set<EventHandler>>();
  private readonly handles = new Set<ConsumerHandle>();
  private closed = false;
  private readonly onError: (error: unknown) => void;

  constructor(opts: InProcessBusOptions = {}) {
    this.onError = opts.onError ?? ((err) => console.error(`[precis-bus] ${errorMessage(err)}`));
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new BusClosedError(operation);
  }

  private queue(stage: Stage): InProcessQueue {
    let q = this.queues.get(stage);
    if (!q) {
      q = new InProcessQueue(stage);
      this.queues.set(stage, q);
    }
    return q;
  }

  async ensureQueue(stage: Stage, opts: QueueOptions = {}): Promise<void> {
    this.assertOpen(`declare queue ${stage}`);
    const q = this.queue(stage);
    if (opts.duplicateWindowMs !== undefined) q.duplicateWindowMs = opts.duplicateWindowMs;
  }

  async enqueue(stage: Stage, msg: WorkMessage): Promise<EnqueueResult> {
    this.assertOpen(`enqueue to ${stage}`);
    if (!msg.id) throw new RangeError(`enqueue to ${stage}: message has no id (the task id is required)`);
    const added = this.queue(stage).add(msg.id, msg.runId, cloneData(msg.data));
    return { id: msg.id, duplicate: !added };
  }

  async enqueueMany(stage: Stage, msgs: Iterable<WorkMessage>): Promise<EnqueueManyResult> {
    let published = 0;
    let duplicates = 0;
    for (const msg of msgs) {
      const res = await this.enqueue(stage, msg);
      published++;
      if (res.duplicate) duplicates++;
    }
    return { published, duplicates };
  }

  private deadLetterSink(q: InProcessQueue): DeadLetterSink {
    return async ({ delivery }, error) => {
      q.dead.push({
        stage: delivery.stage,
        id: delivery.id,
        runId: delivery.runId,
        data: delivery.data,
        deliveryCount: delivery.deliveryCount,
        error: errorMessage(error),
        failedAt: new Date().toISOString(),
      });
    };
  }

  private prepare(stage: Stage, opts: ConsumeOptions | ConsumeBatchOptions): InProcessQueue {
    this.assertOpen(`consume ${stage}`);
    const { ackWaitMs, serverMaxDeliver } = resolveConsumeOptions(opts);
    const maxDeliver = serverMaxDeliver === -1 ? Number.POSITIVE_INFINITY : serverMaxDeliver;
    const q = this.queue(stage);
    // Like the durable JetStream consumer, the latest consumer's settings apply to the queue.
    q.limits = { ackWaitMs, maxDeliver };
    return q;
  }

  private register(handle: ConsumerHandle): ConsumerHandle {
    this.handles.add(handle);
    return {
      stop: async () => {
        await handle.stop();
        this.handles.delete(handle);
      },
    };
  }

  async consume<T extends BusData = BusData>(
    stage: Stage,
    handler: WorkHandler<T>,
    opts: ConsumeOptions = {},
  ): Promise<ConsumerHandle> {
    const q = this.prepare(stage, opts);
    return this.register(
      startWorkerPool(q.openSource(), handler as WorkHandler, opts, this.deadLetterSink(q)),
    );
  }

  async consumeBatch<T extends BusData = BusData>(
    stage: Stage,
    handler: BatchHandler<T>,
    opts: ConsumeBatchOptions = {},
  ): Promise<ConsumerHandle> {
    const q = this.prepare(stage, opts);
    return this.register(
      startBatchWorkerPool(q.openSource(), handler as BatchHandler, opts, this.deadLetterSink(q)),
    );
  }

  async pending(stage: Stage): Promise<number> {
    return this.queue(stage).size;
  }

  async deadLetters(stage: Stage): Promise<DeadLetter[]> {
    return this.queue(stage).dead.map((d) => ({ ...d, data: cloneData(d.data) }));
  }

  async request(subject: string, data: BusData, opts: RequestOptions = {}): Promise<BusData> {
    this.assertOpen(`request ${subject}`);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const handlers = this.responders.get(subject);
    const handler = handlers?.[0];
    if (!handlers || !handler) throw new NoResponderError(subject);
    // Rotate so replicas share requests, like a NATS queue group.
    handlers.push(handlers.shift() as ReplyHandler);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusTimeoutError(subject, timeoutMs)), timeoutMs);
    });
    const answer = (async () => {
      try {
        return cloneData(await handler(cloneData(data)));
      } catch (err) {
        throw new RemoteHandlerError(subject, errorMessage(err));
      }
    })();
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
      answer.catch(() => undefined);
    }
  }

  async reply(subject: string, handler: ReplyHandler): Promise<Subscription> {
    this.assertOpen(`reply on ${subject}`);
    const list = this.responders.get(subject) ?? [];
    list.push(handler);
    this.responders.set(subject, list);
    return {
      unsubscribe: async () => {
        const current = this.responders.get(subject) ?? [];
        this.responders.set(
          subject,
          current.filter((h) => h !== handler),
        );
      },
    };
  }

  async publish(subject: string, data: BusData): Promise<void> {
    this.assertOpen(`publish ${subject}`);
    const matched: EventHandler[] = [];
    for (const [pattern, set] of this.listeners) if (subjectMatches(pattern, subject)) matched.push(...set);
    for (const handler of matched) {
      const copy = cloneData(data);
      // Delivered asynchronously, like a network hop: publish never runs subscriber code inline.
      setImmediate(() => {
        try {
          const r = handler(copy);
          if (r) r.catch((e: unknown) => this.onError(e));
        } catch (e) {
          this.onError(e);
        }
      });
    }
  }

  async subscribe(subject: string, handler: EventHandler): Promise<Subscription> {
    this.assertOpen(`subscribe to ${subject}`);
    const set = this.listeners.get(subject) ?? new Set<EventHandler>();
    // A wrapper, so the same function subscribed twice gets each event twice (as on NATS).
    const wrapper: EventHandler = (data) => handler(data);
    set.add(wrapper);
    this.listeners.set(subject, set);
    return {
      unsubscribe: async () => {
        set.delete(wrapper);
      },
    };
  }

  isConnected(): boolean {
    return !this.closed;
  }

  // Memory queues have no failure of their own to report: publishing and pulling cannot fail.
  problems(): BusProblem[] {
    return [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.handles].map((h) => h.stop()));
    for (const q of this.queues.values()) q.close();
    this.responders.clear();
    this.listeners.clear();
  }
}
