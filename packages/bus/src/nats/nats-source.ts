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
  const consumer = await js.consumers.get(stream, WORKERS_DURABLE);
  let redeclaring: Promise<void> | undefined;
  // The library keeps waiting on a vanished consumer; recreate it and reopen the subscription.
  const watch = (m: ConsumerMessages) => {
    void (async () => {
      for await (const status of m.status()) {
        if (
          !stopping &&
          !redeclaring &&
          (status.type === 'consumer_deleted' ||
            status.type === 'consumer_not_found' ||
            status.type === 'stream_not_found')
        ) {
          hooks.onError(new Error(`${stream}: ${status.type.replace(/_/g, ' ')}; declaring it again`));
          // Then restart the pull subscription: this one would only notice after missed heartbeats.
          redeclaring = hooks
            .redeclare()
            .then(() => {
              void m.close();
            })
            .catch(hooks.onError)
            .finally(() => {
              redeclaring = undefined;
            });
        }
      }
    })().catch(hooks.onError);
  };
  let messages: ConsumerMessages = await consumer.consume({
    max_messages: maxMessages,
    expires: PULL_EXPIRES_MS,
  });
  watch(messages);
  let iterator = messages[Symbol.asyncIterator]();
  // An iterator step still running after a timed-out next(); the following next() reuses it.
  let step: Promise<IteratorResult<JsMsg>> | undefined;
  let stopping = false;
  let ended = false;

  const reopen = async (reason: unknown) => {
    // During an outage the connection's own events say it once; no line per retry here.
    if (hooks.isConnected()) {
      hooks.onError(
        new Error(
          `pulling from ${stream} failed (${errorMessage(reason)}); retrying in ${REOPEN_DELAY_MS} ms`,
        ),
      );
    }
    await new Promise((r) => setTimeout(r, REOPEN_DELAY_MS));
    if (stopping) return;
    try {
      // Polled so that stopPulling() during an outage is not held up.
      while (!stopping && !hooks.isConnected()) await new Promise((r) => setTimeout(r, 250));
      if (stopping) return;
      messages = await consumer.consume({ max_messages: maxMessages, expires: PULL_EXPIRES_MS });
      watch(messages);
      iterator = messages[Symbol.asyncIterator]();
    } catch (err) {
      hooks.onError(err);
    }
  };

  const take = async (timeoutMs?: number): Promise<RawDelivery | null | undefined> => {
    for (;;) {
      if (ended) return null;
      step ??= iterator.next();
      let timer: NodeJS.Timeout | undefined;
      let res: IteratorResult<JsMsg> | undefined;
      try {
        res =
          timeoutMs === undefined
            ? await step
            : await Promise.race([
                step,
                new Promise<undefined>((resolve) => {
                  timer = setTimeout(() => resolve(undefined), timeoutMs);
                }),
              ]);
      } catch (err) {
        step = undefined;
        if (stopping) ended = true;
        else await reopen(err);
        continue;
      } finally {
        clearTimeout(timer);
      }
      if (res === undefined) return undefined;
      step = undefined;
      if (res.done) {
        if (stopping) ended = true;
        else await reopen('the pull subscription ended');
        continue;
      }
      try {
        return deliveryFromJsMsg(stage, res.value);
      } catch (err) {
        await hooks.onUndecodable(res.value, err).catch(hooks.onError);
      }
    }
  };

  return {
    next: take,
    async stopPulling() {
      stopping = true;
      // Not awaited: close() settles only once the iterator has been read to its end.
      void messages.close();
    },
    async finish() {
      // Acks are fire-and-forget publishes; make sure they reached the server before resolving.
      // While it is unreachable they cannot: those messages are redelivered after ack-wait.
      if (!nc.isClosed() && hooks.isConnected()) await nc.flush();
    },
  };
}
