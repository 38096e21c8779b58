import { setTimeout as delay } from 'node:timers/promises';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, type Stage } from '@precis/contracts';
import { decodeData, HEADER_ENCODING } from '../codec.js';
import { errorMessage } from '../errors.js';
import type { DeliverySource, RawDelivery } from '../worker-pool.js';

export function deliveryFromJsMsg(stage: Stage, m: JsMsg): RawDelivery {
  const h: MsgHdrs | undefined = m.headers;
  const id = h?.get(HEADER_TASK_ID) || `${stage}#${m.seq}`;
  const runId = h?.get(HEADER_RUN_ID) || undefined;
  const data = decodeData(m.data, h?.get(HEADER_ENCODING));
  return {
    delivery: {
      stage,
      id,
      runId,
      data,
      deliveryCount: m.info.deliveryCount,
      working: () => m.working(),
    },
    ack: () => m.ack(),
    // nats-server 2.9.10 mishandles an undelayed NAK while no pull request is waiting (it
    // redelivers a neighbour twice and strands the nak'd message), so always ask for >= 1 ms.
    nak: (delayMs) => m.nak(Math.max(1, Math.round(delayMs))),
  };
}

export interface NatsSourceHooks {
  /** A message whose payload cannot be decoded: store it as a dead letter, then ack it. */
  onUndecodable(m: JsMsg, err: unknown): Promise<void>;
  onError(err: unknown): void;
  /** Declares the stream and durable consumer again (deleted by an operator, or never made). */
  redeclare(): Promise<void>;
  /** The durable consumer, looked up again. */
  consumer(): Promise<Consumer>;
  isConnected(): boolean;
  /** Pulling failed / works again: the stage's health. */
  failed(err: unknown): void;
  healthy(): void;
}

// Delays between attempts to get a failed pull going again (the last repeats): a stream that
// cannot be declared is retried every 5 s for as long as it takes.
const RECOVER_DELAYS_MS = [1_000, 2_000, 5_000];
// While recovery keeps failing with the same error, it is logged again this often.
const RECOVER_LOG_EVERY_MS = 60_000;
// Pull requests are renewed this often; a deleted consumer is noticed (and declared again) on
// the next renewal, so this bounds recovery time (the library default is 30 s).
const PULL_EXPIRES_MS = 10_000;
// What the pull says when its consumer or stream is gone: the subscription is restarted.
const GONE = new Set(['consumer_deleted', 'consumer_not_found', 'stream_not_found']);

/**
 * Pulls from the stage's durable consumer with `consume()` (continuous pull requests, the fast
 * path). The library issues its refill pulls only as its iterator is advanced, so the pool
 * advancing it only when a handler slot is free keeps the process from pulling more than
 * `maxMessages` ahead of what it runs. A pull that fails (consumer or stream deleted, connection
 * trouble) is reported and started again, declaring the stream and consumer again, until that
 * works: one incident never silently ends a worker.
 */
export async function openNatsSource(
  nc: NatsConnection,
  stage: Stage,
  stream: string,
  maxMessages: number,
  hooks: NatsSourceHooks,
): Promise<DeliverySource> {
  const pull = new NatsPull(await hooks.consumer(), stream, stage, maxMessages, hooks);
  await pull.open();
  return {
    next: (timeoutMs) => pull.take(timeoutMs),
    async stopPulling() {
      pull.stop();
    },
    async finish() {
      // Acks are fire-and-forget publishes; make sure they reached the server before resolving.
      // While it is unreachable they cannot: those messages are redelivered after ack-wait.
      if (!nc.isClosed() && hooks.isConnected()) await nc.flush();
    },
  };
}

type Consumer = Awaited<ReturnType<JetStreamClient['consumers']['get']>>;

// One stage's pull subscription, started again when it fails or its consumer vanishes.
class NatsPull {
  private stopping = false;
  private readonly stopped = new AbortController();
  private messages: ConsumerMessages | undefined;
  private iterator: AsyncIterator<JsMsg> | undefined;
  // An iterator step still running after a timed-out next(); the following next() reuses it.
  private step: Promise<IteratorResult<JsMsg>> | undefined;
  private ended = false;
  // Getting a failed pull going again; take() waits for it only as long as its caller does.
  private recovering: Promise<void> | undefined;

  constructor(
    private consumer: Consumer,
    private readonly stream: string,
    private readonly stage: Stage,
    private readonly maxMessages: number,
    private readonly hooks: NatsSourceHooks,
  ) {}

  async open(): Promise<void> {
    this.messages = await this.consumer.consume({ max_messages: this.maxMessages, expires: PULL_EXPIRES_MS });
    this.watch(this.messages);
    this.iterator = this.messages[Symbol.asyncIterator]();
  }

  stop(): void {
    this.stopping = true;
    this.stopped.abort();
    // Not awaited: close() settles only once the iterator has been read to its end.
    void this.messages?.close();
  }

  // The library keeps waiting on a vanished consumer: end this subscription, take() recovers.
  private watch(m: ConsumerMessages): void {
    void (async () => {
      for await (const status of m.status()) {
        if (this.stopping || !GONE.has(status.type)) continue;
        this.hooks.failed(new Error(`${this.stream}: ${status.type.replace(/_/g, ' ')}`));
        void m.close();
        return;
      }
    })().catch(this.hooks.onError);
  }

  // Declares the stream and consumer again and reopens the pull, with growing pauses, until it
  // works or the source stops. During an outage it waits for the connection instead.
  private async recover(reason: unknown): Promise<void> {
    let logged = '';
    let loggedAt = 0;
    const report = (err: unknown) => {
      const text = errorMessage(err);
      if (text === logged && Date.now() - loggedAt < RECOVER_LOG_EVERY_MS) return;
      logged = text;
      loggedAt = Date.now();
      this.hooks.onError(
        new Error(`pulling from ${this.stream} failed (${text}); declaring its stream and consumer again`),
      );
    };
    // During an outage the connection's own events say it once; no line per retry here.
    if (this.hooks.isConnected()) report(reason);
    for (let attempt = 0; !this.stopping; attempt++) {
      await pause(RECOVER_DELAYS_MS[Math.min(attempt, RECOVER_DELAYS_MS.length - 1)]!, this.stopped.signal);
      // Polled so that stop() during an outage is not held up.
      while (!this.stopping && !this.hooks.isConnected()) await pause(250, this.stopped.signal);
      if (this.stopping) return;
      try {
        await this.hooks.redeclare();
        this.consumer = await this.hooks.consumer();
        await this.open();
        this.hooks.healthy();
        return;
      } catch (err) {
        if (!this.hooks.isConnected()) continue;
        this.hooks.failed(err);
        report(err);
      }
    }
  }

  private startRecovery(reason: unknown): void {
    this.recovering ??= this.recover(reason).finally(() => {
      this.recovering = undefined;
    });
  }

  // The next delivery; undefined when timeoutMs passed first, null once stopped and drained.
  async take(timeoutMs?: number): Promise<RawDelivery | null | undefined> {
    for (;;) {
      if (this.ended) return null;
      if (this.recovering) {
        if (
          (await within(
            this.recovering.then(() => true),
            timeoutMs,
          )) === undefined
        )
          return undefined;
        continue;
      }
      this.step ??= this.iterator!.next();
      let res: IteratorResult<JsMsg> | undefined;
      try {
        res = await within(this.step, timeoutMs);
      } catch (err) {
        this.step = undefined;
        if (this.stopping) this.ended = true;
        else this.startRecovery(err);
        continue;
      }
      if (res === undefined) return undefined;
      this.step = undefined;
      if (res.done) {
        if (this.stopping) this.ended = true;
        else this.startRecovery('the pull subscription ended');
        continue;
      }
      try {
        return deliveryFromJsMsg(this.stage, res.value);
      } catch (err) {
        await this.hooks.onUndecodable(res.value, err).catch(this.hooks.onError);
      }
    }
  }
}

// Waits ms, or less once the source stops (the only rejection is the abort).
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  delay(ms, undefined, { signal }).catch(() => undefined);

// The promise's value, or undefined when timeoutMs passes first (no limit when undefined).
async function within<T>(promise: Promise<T>, timeoutMs: number | undefined): Promise<T | undefined> {
  if (timeoutMs === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
