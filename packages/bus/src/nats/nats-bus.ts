import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import {
  connect,
  headers,
  type MsgHdrs,
  type NatsConnection,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, STAGES, type Stage } from '@precis/contracts';
import { decodeData, decodeText, encodeData, encodeText, HEADER_ENCODING, HEADER_ERROR } from '../codec.js';
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
  pullLimit,
  resolveConsumeOptions,
  startBatchWorkerPool,
  startWorkerPool,
} from '../worker-pool.js';
import {
  HEADER_DELIVERY_COUNT,
  HEADER_FAILED_AT,
  readDeadLetters,
  watchMaxDeliveries,
} from './nats-dead-letters.js';
import { ensureStageStreams, ensureWorkersConsumer, NatsNames } from './nats-queues.js';
import { type NatsSourceHooks, openNatsSource } from './nats-source.js';

export interface NatsBusOptions {
  servers?: string | string[];
  /** Isolates streams and subjects (e.g. one prefix per test file). */
  prefix?: string;
  /** Connection name shown by the server (monitoring). */
  name?: string;
  /** Server-wide cap on delivered-but-unacked messages per stage consumer (default 20,000). */
  maxAckPending?: number;
  /** Reports errors that have no caller to throw to (event handlers, dead-letter storage). */
  onError?: (error: unknown) => void;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
// Queue group shared by every replica answering the same request subject.
const REPLY_QUEUE = 'precis-responders';

export async function createNatsBus(opts: NatsBusOptions = {}): Promise<NatsBus> {
  const servers = opts.servers ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  let nc: NatsConnection;
  try {
    nc = await connect({ servers, name: opts.name ?? 'precis-bus' });
  } catch (err) {
    throw new Error(
      `cannot connect to NATS at ${String(servers)}: ${errorMessage(err)}. ` +
        'Start nats-server with JetStream (-js) or set NATS_URL.',
    );
  }
  return new NatsBus(nc, opts);
}

export class NatsBus implements Bus {
  readonly kind = 'nats' as const;
  readonly names: NatsNames;
  private readonly js: JetStreamClient;
  private jsmPromise?: Promise<JetStreamManager>;
  private readonly ensured = new Map<Stage, Promise<void>>();
  private readonly handles = new Set<ConsumerHandle>();
  private readonly subs = new Set<Subscription>();
  private readonly watchers = new Map<Stage, Subscription>();
  private closed = false;
  private readonly onError: (error: unknown) => void;

  constructor(
    readonly connection: NatsConnection,
    private readonly opts: NatsBusOptions,
  ) {
    this.names = new NatsNames(opts.prefix);
    this.js = jetstream(connection);
    this.onError = opts.onError ?? ((err) => console.error(`[precis-bus] ${errorMessage(err)}`));
  }

  private jsm(): Promise<JetStreamManager> {
    this.jsmPromise ??= jetstreamManager(this.connection);
    return this.jsmPromise;
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new BusClosedError(operation);
  }

  ensureQueue(stage: Stage, opts: QueueOptions = {}): Promise<void> {
    this.assertOpen(`declare queue ${stage}`);
    let p = this.ensured.get(stage);
    if (!p || opts.duplicateWindowMs !== undefined) {
      p = this.jsm().then((jsm) => ensureStageStreams(jsm, this.names, stage, opts.duplicateWindowMs));
      p.catch(() => this.ensured.delete(stage));
      this.ensured.set(stage, p);
    }
    return p;
  }

  private workHeaders(id: string, runId: string | undefined, encoding: string): MsgHdrs {
    const h = headers();
    h.set(HEADER_TASK_ID, id);
    if (runId) h.set(HEADER_RUN_ID, runId);
    h.set(HEADER_ENCODING, encoding);
    return h;
  }

  async enqueue(stage: Stage, msg: WorkMessage): Promise<EnqueueResult> {
    this.assertOpen(`enqueue to ${stage}`);
    await this.ensureQueue(stage);
    if (!msg.id) throw new RangeError(`enqueue to ${stage}: message has no id (the task id is required)`);
    const { body, encoding } = encodeData(msg.data);
    const ack = await this.js.publish(this.names.taskSubject(stage), body, {
      msgID: msg.id,
      headers: this.workHeaders(msg.id, msg.runId, encoding),
    });
    return { id: msg.id, duplicate: ack.duplicate };
  }

  async enqueueMany(
    stage: Stage,
    msgs: Iterable<WorkMessage>,
    opts: { concurrency?: number } = {},
  ): Promise<EnqueueManyResult> {
    const concurrency = opts.concurrency ?? 256;
    const iterator = msgs[Symbol.iterator]();
    let published = 0;
    let duplicates = 0;
    await this.ensureQueue(stage);
    // `concurrency` lanes each await one publish ack at a time: many acks in flight, bounded memory.
    const lane = async () => {
      for (let r = iterator.next(); !r.done; r = iterator.next()) {
        const res = await this.enqueue(stage, r.value);
        published++;
        if (res.duplicate) duplicates++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return { published, duplicates };
  }

  private deadLetterSink(stage: Stage): DeadLetterSink {
    return async (raw, error) => {
      const { delivery } = raw;
      const { body, encoding } = encodeData(delivery.data);
      const h = this.workHeaders(delivery.id, delivery.runId, encoding);
      h.set(HEADER_ERROR, errorMessage(error).slice(0, 2000));
      h.set(HEADER_DELIVERY_COUNT, String(delivery.deliveryCount));
      h.set(HEADER_FAILED_AT, new Date().toISOString());
      await this.js.publish(this.names.deadLetterSubject(stage), body, { headers: h });
    };
  }

  private sourceHooks(stage: Stage, opts: ConsumeOptions | ConsumeBatchOptions): NatsSourceHooks {
    return {
      onError: this.onError,
      redeclare: async () => {
        if (this.closed) return;
        this.ensured.delete(stage);
        await this.prepareConsumer(stage, opts);
      },
      onUndecodable: async (m, err) => {
        const h = headers();
        for (const [k, v] of m.headers ?? []) for (const value of v) h.append(k, value);
        h.set(HEADER_ENCODING, 'bin');
        h.set(HEADER_ERROR, `undecodable payload: ${errorMessage(err)}`);
        h.set(HEADER_DELIVERY_COUNT, String(m.info.deliveryCount));
        h.set(HEADER_FAILED_AT, new Date().toISOString());
        await this.js.publish(this.names.deadLetterSubject(stage), m.data, { headers: h });
        m.ack();
        this.onError(
          new Error(`${stage} message ${m.seq} had an undecodable payload; moved to dead letters`),
        );
      },
    };
  }

  private async prepareConsumer(stage: Stage, opts: ConsumeOptions | ConsumeBatchOptions): Promise<void> {
    this.assertOpen(`consume ${stage}`);
    const resolved = resolveConsumeOptions(opts);
    await this.ensureQueue(stage);
    const jsm = await this.jsm();
    await ensureWorkersConsumer(jsm, this.names, stage, {
      ackWaitMs: resolved.ackWaitMs,
      maxDeliver: resolved.maxDeliver,
      maxAckPending: this.opts.maxAckPending ?? 20_000,
    });
    if (!this.watchers.has(stage)) {
      this.watchers.set(
        stage,
        watchMaxDeliveries(this.connection, this.js, jsm, this.names, stage, this.onError),
      );
    }
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

  // Declares the stage's durable consumer for these options and opens a pull on it.
  private async openSource(stage: Stage, opts: ConsumeOptions | ConsumeBatchOptions, batch: boolean) {
    await this.prepareConsumer(stage, opts);
    return openNatsSource(
      this.connection,
      this.js,
      this.names.taskStream(stage),
      stage,
      pullLimit(opts, batch),
      this.sourceHooks(stage, opts),
    );
  }

  async consume<T extends BusData = BusData>(
    stage: Stage,
    handler: WorkHandler<T>,
    opts: ConsumeOptions = {},
  ): Promise<ConsumerHandle> {
    const source = await this.openSource(stage, opts, false);
    return this.register(startWorkerPool(source, handler as WorkHandler, opts, this.deadLetterSink(stage)));
  }

  async consumeBatch<T extends BusData = BusData>(
    stage: Stage,
    handler: BatchHandler<T>,
    opts: ConsumeBatchOptions = {},
  ): Promise<ConsumerHandle> {
    const source = await this.openSource(stage, opts, true);
    return this.register(
      startBatchWorkerPool(source, handler as BatchHandler, opts, this.deadLetterSink(stage)),
    );
  }

  async pending(stage: Stage): Promise<number> {
    await this.ensureQueue(stage);
    const info = await (await this.jsm()).streams.info(this.names.taskStream(stage));
    return info.state.messages;
  }

  async deadLetters(stage: Stage): Promise<DeadLetter[]> {
    await this.ensureQueue(stage);
    return readDeadLetters(this.js, await this.jsm(), this.names, stage);
  }

  async request(subject: string, data: BusData, opts: RequestOptions = {}): Promise<BusData> {
    this.assertOpen(`request ${subject}`);
    const full = this.names.subject(subject);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const { body, encoding } = encodeData(data);
    const h = headers();
    h.set(HEADER_ENCODING, encoding);
    if (opts.runId) h.set(HEADER_RUN_ID, opts.runId);
    try {
      const reply = await this.connection.request(full, body, { timeout: timeoutMs, headers: h });
      const failure = reply.headers?.get(HEADER_ERROR);
      if (failure) throw new RemoteHandlerError(subject, decodeText(reply.data));
      return decodeData(reply.data, reply.headers?.get(HEADER_ENCODING));
    } catch (err) {
      if (err instanceof TimeoutError || (err instanceof RequestError && err.cause instanceof TimeoutError)) {
        throw new BusTimeoutError(subject, timeoutMs);
      }
      if (err instanceof RequestError && err.isNoResponders()) throw new NoResponderError(subject);
      throw err;
    }
  }

  async reply(subject: string, handler: ReplyHandler): Promise<Subscription> {
    this.assertOpen(`reply on ${subject}`);
    const sub = this.connection.subscribe(this.names.subject(subject), {
      queue: REPLY_QUEUE,
      callback: (err, msg) => {
        if (err) return this.onError(err);
        void (async () => {
          try {
            const result = await handler(decodeData(msg.data, msg.headers?.get(HEADER_ENCODING)));
            const { body, encoding } = encodeData(result);
            const h = headers();
            h.set(HEADER_ENCODING, encoding);
            msg.respond(body, { headers: h });
          } catch (handlerErr) {
            const h = headers();
            h.set(HEADER_ERROR, '1');
            msg.respond(encodeText(errorMessage(handlerErr)), { headers: h });
          }
        })();
      },
    });
    // Make sure the server registered the subscription before callers send requests.
    await this.connection.flush();
    return this.track(sub);
  }

  async publish(subject: string, data: BusData): Promise<void> {
    this.assertOpen(`publish ${subject}`);
    const { body, encoding } = encodeData(data);
    const h = headers();
    h.set(HEADER_ENCODING, encoding);
    this.connection.publish(this.names.subject(subject), body, { headers: h });
  }

  async subscribe(subject: string, handler: EventHandler): Promise<Subscription> {
    this.assertOpen(`subscribe to ${subject}`);
    const sub = this.connection.subscribe(this.names.subject(subject), {
      callback: (err, msg) => {
        if (err) return this.onError(err);
        try {
          const r = handler(decodeData(msg.data, msg.headers?.get(HEADER_ENCODING)));
          if (r) r.catch((e: unknown) => this.onError(e));
        } catch (e) {
          this.onError(e);
        }
      },
    });
    await this.connection.flush();
    return this.track(sub);
  }

  private track(sub: { unsubscribe(): void }): Subscription {
    const handle: Subscription = {
      unsubscribe: async () => {
        this.subs.delete(handle);
        sub.unsubscribe();
      },
    };
    this.subs.add(handle);
    return handle;
  }

  /**
   * Stops this bus's consumers (they would declare their queues again), then deletes every stream
   * under its prefix. Tests and benchmarks clean up with it.
   */
  async deleteStreams(): Promise<void> {
    if (!this.opts.prefix) {
      throw new Error('deleteStreams() needs a prefixed bus: refusing to delete shared streams');
    }
    await Promise.all([...this.handles].map((h) => h.stop()));
    const jsm = await this.jsm();
    for (const name of this.names.allStreams(STAGES)) {
      await jsm.streams.delete(name).catch((err: unknown) => {
        if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
      });
    }
    this.ensured.clear();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.handles].map((h) => h.stop()));
    await Promise.all([...this.subs, ...this.watchers.values()].map((s) => s.unsubscribe()));
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}
