import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, type Stage } from '@precis/contracts';
import { decodeData, HEADER_ENCODING } from '../codec.js';
import { errorMessage } from '../errors.js';
import type { DeliverySource, RawDelivery } from '../worker-pool.js';
import { WORKERS_DURABLE } from './nats-queues.js';

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
  /** The stream or durable consumer vanished (deleted by an operator): declare them again. */
  redeclare(): Promise<void>;
  isConnected(): boolean;
}

const REOPEN_DELAY_MS = 1_000;
// Pull requests are renewed this often; a deleted consumer is noticed (and declared again) on
// the next renewal, so this bounds recovery time (the library default is 30 s).
const PULL_EXPIRES_MS = 10_000;

/**
 * Pulls from the stage's durable consumer with `consume()` (continuous pull requests, the fast
 * path). The library issues its refill pulls only as its iterator is advanced, so the pool
 * advancing it only when a handler slot is free keeps the process from pulling more than
 * `maxMessages` ahead of what it runs. A pull that fails (consumer deleted, connection trouble)
 * is reported and reopened, so one incident does not silently end a worker.
 */
export async function openNatsSource(
  nc: NatsConnection,
  js: JetStreamClient,
  stream: string,
  stage: Stage,
  maxMessages: number,
  hooks: NatsSourceHooks,
): Promise<DeliverySource> {
  const pull = new NatsPull(
    await js.consumers.get(stream, WORKERS_DURABLE),
    stream,
    stage,
    maxMessages,
    hooks,
  );
  await pull.open();
  return {
    next: (timeoutMs) => pull.take(timeoutMs),
    async stopPulling() {
      pull.stopping = true;
      // Not awaited: close() settles only once the iterator has been read to its end.
      void pull.messages?.close();
    },
    async finish() {
      // Acks are fire-and-forget publishes; make sure they reached the server before resolving.
      // While it is unreachable they cannot: those messages are redelivered after ack-wait.
      if (!nc.isClosed() && hooks.isConnected()) await nc.flush();
    },
  };
}

type Consumer = Awaited<ReturnType<JetStreamClient['consumers']['get']>>;

// One stage's pull subscription, reopened when it fails or its consumer vanishes.
class NatsPull {
  stopping = false;
  messages: ConsumerMessages | undefined;
  private iterator: AsyncIterator<JsMsg> | undefined;
  // An iterator step still running after a timed-out next(); the following next() reuses it.
  private step: Promise<IteratorResult<JsMsg>> | undefined;
  private ended = false;
  private redeclaring: Promise<void> | undefined;

  constructor(
    private readonly consumer: Consumer,
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

  // The library keeps waiting on a vanished consumer; recreate it and reopen the subscription.
  private watch(m: ConsumerMessages): void {
    void (async () => {
      for await (const status of m.status()) {
        if (
          !this.stopping &&
          !this.redeclaring &&
          (status.type === 'consumer_deleted' ||
            status.type === 'consumer_not_found' ||
            status.type === 'stream_not_found')
        ) {
          this.hooks.onError(
            new Error(`${this.stream}: ${status.type.replace(/_/g, ' ')}; declaring it again`),
          );
          // Then restart the pull subscription: this one would only notice after missed heartbeats.
          this.redeclaring = this.hooks
            .redeclare()
            .then(() => {
              void m.close();
            })
            .catch(this.hooks.onError)
            .finally(() => {
              this.redeclaring = undefined;
            });
        }
      }
    })().catch(this.hooks.onError);
  }

  private async reopen(reason: unknown): Promise<void> {
    // During an outage the connection's own events say it once; no line per retry here.
    if (this.hooks.isConnected()) {
      this.hooks.onError(
        new Error(
          `pulling from ${this.stream} failed (${errorMessage(reason)}); retrying in ${REOPEN_DELAY_MS} ms`,
        ),
      );
    }
    await new Promise((r) => setTimeout(r, REOPEN_DELAY_MS));
    if (this.stopping) return;
    try {
      // Polled so that stopPulling() during an outage is not held up.
      while (!this.stopping && !this.hooks.isConnected()) await new Promise((r) => setTimeout(r, 250));
      if (this.stopping) return;
      await this.open();
    } catch (err) {
      this.hooks.onError(err);
    }
  }

  // The next delivery; undefined when timeoutMs passed first, null once stopped and drained.
  async take(timeoutMs?: number): Promise<RawDelivery | null | undefined> {
    for (;;) {
      if (this.ended) return null;
      this.step ??= this.iterator!.next();
      let res: IteratorResult<JsMsg> | undefined;
      try {
        res = await within(this.step, timeoutMs);
      } catch (err) {
        this.step = undefined;
        if (this.stopping) this.ended = true;
        else await this.reopen(err);
        continue;
      }
      if (res === undefined) return undefined;
      this.step = undefined;
      if (res.done) {
        if (this.stopping) this.ended = true;
        else await this.reopen('the pull subscription ended');
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
