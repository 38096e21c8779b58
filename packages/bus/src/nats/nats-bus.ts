import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, STAGES, type Stage } from '@precis/contracts';
import { BusHealth } from '../bus-health.js';
import { encodeData, HEADER_ENCODING, HEADER_ERROR } from '../codec.js';
import { BusClosedError, errorMessage } from '../errors.js';
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
  pullLimit,
  resolveConsumeOptions,
  startBatchWorkerPool,
  startWorkerPool,
} from '../worker-pool.js';
import {
  HEADER_DELIVERY_COUNT,
  HEADER_EXPECTED_STREAM,
  HEADER_FAILED_AT,
  readDeadLetters,
  watchMaxDeliveries,
} from './nats-dead-letters.js';
import {
  type BusConnectionEvent,
  ConnectionWatch,
  connectWithReconnect,
  type ReconnectOptions,
} from './nats-link.js';
import { NatsMessaging } from './nats-messaging.js';
import { ensureWorkersConsumer, NatsNames, WORKERS_DURABLE } from './nats-queues.js';
import { type NatsSourceHooks, openNatsSource } from './nats-source.js';
import { StageStreams } from './nats-stage-streams.js';

export interface NatsBusOptions extends ReconnectOptions {
  servers?: string | string[];
  /** Isolates streams and subjects (e.g. one prefix per test file). */
  prefix?: string;
  /** Connection name shown by the server (monitoring). */
  name?: string;
  /** Server-wide cap on delivered-but-unacked messages per stage consumer (default 20,000). */
  maxAckPending?: number;
  /** Reports errors that have no caller to throw to (event handlers, dead-letter storage). */
  onError?: (error: unknown) => void;
  /** Told once when the connection is lost and once when it is back (default: a console line). */
  onConnectionEvent?: (event: BusConnectionEvent) => void;
  /**
   * How long an enqueue, publish or JetStream call made while the server is unreachable waits
   * for it before failing with BusUnavailableError (default 60 s).
   */
  unavailableWaitMs?: number;
  /**
   * How long a stage's publishes, pulls or queue reads must keep failing (no success in between,
   * connected) before `problems()` reports them (default 20 s).
   */
  failingAfterMs?: number;
}

const DEFAULT_UNAVAILABLE_WAIT_MS = 60_000;

function logConnectionEvent(event: BusConnectionEvent): void {
  if (event.type === 'disconnected') console.warn(`[precis-bus] lost NATS at ${event.server}; reconnecting`);
  else console.warn(`[precis-bus] reconnected to NATS at ${event.server} after ${event.downMs} ms`);
}

// The first connection must succeed (callers retry startup themselves); after it, the
// connection is re-established forever with backoff.
export async function createNatsBus(opts: NatsBusOptions = {}): Promise<NatsBus> {
  const servers = opts.servers ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const waitMs = opts.unavailableWaitMs ?? DEFAULT_UNAVAILABLE_WAIT_MS;
  if (!(waitMs >= 0)) throw new RangeError(`createNatsBus: unavailableWaitMs must be >= 0 (got ${waitMs})`);
  let conn: Awaited<ReturnType<typeof connectWithReconnect>>;
  try {
    conn = await connectWithReconnect({ servers, name: opts.name ?? 'precis-bus' }, opts);
  } catch (err) {
    if (err instanceof RangeError) throw err;
    throw new Error(
      `cannot connect to NATS at ${String(servers)}: ${errorMessage(err)}. ` +
        'Start nats-server with JetStream (-js) or set NATS_URL.',
    );
  }
  const link = new ConnectionWatch(
    conn.nc,
    waitMs,
    opts.onConnectionEvent ?? logConnectionEvent,
    conn.resetBackoff,
  );
  return new NatsBus(conn.nc, opts, link);
}

export class NatsBus implements Bus {
  readonly kind = 'nats' as const;
  readonly names: NatsNames;
  private readonly js: JetStreamClient;
  private jsmPromise?: Promise<JetStreamManager>;
  private readonly streams: StageStreams;
  private readonly handles = new Set<ConsumerHandle>();
  private readonly messaging: NatsMessaging;
  private readonly watchers = new Map<Stage, Subscription>();
  private closed = false;
  private readonly onError: (error: unknown) => void;

  constructor(
    readonly connection: NatsConnection,
    private readonly opts: NatsBusOptions,
    private readonly link: ConnectionWatch,
  ) {
    this.names = new NatsNames(opts.prefix);
    this.js = jetstream(connection);
    this.onError = opts.onError ?? ((err) => console.error(`[precis-bus] ${errorMessage(err)}`));
    this.messaging = new NatsMessaging(connection, this.names, link, this.onError);
    const health = new BusHealth((stage) => this.names.taskStream(stage), {
      failingAfterMs: opts.failingAfterMs,
    });
    this.streams = new StageStreams(link, () => this.jsm(), this.names, health);
  }

  /** False while the connection to the server is lost (the client keeps reconnecting). */
  isConnected(): boolean {
    return !this.closed && this.link.connected;
  }

  problems(): BusProblem[] {
    return this.closed ? [] : this.streams.health.problems();
  }

  private jsm(): Promise<JetStreamManager> {
    if (!this.jsmPromise) {
      const p = jetstreamManager(this.connection);
      // A failure (server unreachable) is not kept: the next call tries again.
      p.catch(() => {
        if (this.jsmPromise === p) this.jsmPromise = undefined;
      });
      this.jsmPromise = p;
    }
    return this.jsmPromise;
  }

  private assertOpen(operation: string): void {
    if (this.closed) throw new BusClosedError(operation);
  }

  ensureQueue(stage: Stage, opts: QueueOptions = {}): Promise<void> {
    this.assertOpen(`declare queue ${stage}`);
    return this.streams.ensure(stage, opts.duplicateWindowMs);
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
    if (!msg.id) throw new RangeError(`enqueue to ${stage}: message has no id (the task id is required)`);
    const { body, encoding } = encodeData(msg.data);
    const h = this.workHeaders(msg.id, msg.runId, encoding);
    // Retried across a server restart: the msg id makes a repeated publish a duplicate. Only the
    // stage's own stream may store it (not one that took its subject after it was deleted).
    const stream = this.names.taskStream(stage);
    const ack = await this.streams.use(stage, 'publish', `enqueue ${msg.id} to ${stage}`, () =>
      this.js.publish(this.names.taskSubject(stage), body, {
        msgID: msg.id,
        headers: h,
        expect: { streamName: stream },
      }),
    );
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
      await this.link.run(`dead-letter ${delivery.id}`, () =>
        this.js.publish(this.names.deadLetterSubject(stage), body, { headers: h }),
      );
    };
  }

  private sourceHooks(stage: Stage, opts: ConsumeOptions | ConsumeBatchOptions): NatsSourceHooks {
    return {
      onError: this.onError,
      isConnected: () => this.link.connected,
      redeclare: async () => {
        if (this.closed) return;
        this.streams.forget(stage);
        await this.prepareConsumer(stage, opts);
      },
      consumer: () =>
        this.link.run(`consume ${stage}`, () =>
          this.js.consumers.get(this.names.taskStream(stage), WORKERS_DURABLE),
        ),
      failed: (err) => this.streams.failed(stage, 'consume', err),
      healthy: () => this.streams.health.succeeded(stage, 'consume'),
      onUndecodable: async (m, err) => {
        const h = headers();
        for (const [k, v] of m.headers ?? [])
          if (k.toLowerCase() !== HEADER_EXPECTED_STREAM.toLowerCase())
            for (const value of v) h.append(k, value);
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
    const jsm = await this.link.run(`consume ${stage}`, () => this.jsm());
    await this.link.run(`declare the ${stage} consumer`, () =>
      ensureWorkersConsumer(jsm, this.names, stage, {
        ackWaitMs: resolved.ackWaitMs,
        // Unlimited when transient failures must not use up deliveries; the pool decides then.
        maxDeliver: resolved.serverMaxDeliver,
        maxAckPending: this.opts.maxAckPending ?? 20_000,
      }),
    );
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
    return this.link.run(`consume ${stage}`, () =>
      openNatsSource(
        this.connection,
        stage,
        this.names.taskStream(stage),
        pullLimit(opts, batch),
        this.sourceHooks(stage, opts),
      ),
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
    this.assertOpen(`read the ${stage} queue`);
    const info = await this.streams.use(stage, 'read', `read the ${stage} queue`, async () =>
      (await this.jsm()).streams.info(this.names.taskStream(stage)),
    );
    return info.state.messages;
  }

  async deadLetters(stage: Stage): Promise<DeadLetter[]> {
    await this.ensureQueue(stage);
    return this.link.run(`read ${stage} dead letters`, async () =>
      readDeadLetters(this.js, await this.jsm(), this.names, stage),
    );
  }

  request(subject: string, data: BusData, opts: RequestOptions = {}): Promise<BusData> {
    this.assertOpen(`request ${subject}`);
    return this.messaging.request(subject, data, opts);
  }

  reply(subject: string, handler: ReplyHandler): Promise<Subscription> {
    this.assertOpen(`reply on ${subject}`);
    return this.messaging.reply(subject, handler);
  }

  publish(subject: string, data: BusData): Promise<void> {
    this.assertOpen(`publish ${subject}`);
    return this.messaging.publish(subject, data);
  }

  subscribe(subject: string, handler: EventHandler): Promise<Subscription> {
    this.assertOpen(`subscribe to ${subject}`);
    return this.messaging.subscribe(subject, handler);
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
    this.streams.forget();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.handles].map((h) => h.stop()));
    await Promise.all([...this.messaging.subs, ...this.watchers.values()].map((s) => s.unsubscribe()));
    const connected = this.link.connected;
    this.link.close();
    // Draining needs the server; while it is unreachable, close without waiting for it.
    if (!this.connection.isClosed()) await (connected ? this.connection.drain() : this.connection.close());
  }
}
