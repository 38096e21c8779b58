import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, type Stage } from '@precis/contracts';
import { decodeData, HEADER_ENCODING } from '../codec.js';
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

/**
 * Pulls from the stage's durable consumer with `consume()` (continuous pull requests, the fast
 * path). The library issues its refill pulls only as its iterator is advanced, so the pool
 * advancing it only when a handler slot is free keeps the process from pulling more than
 * `maxMessages` ahead of what it runs.
 */
export async function openNatsSource(
  nc: NatsConnection,
  js: JetStreamClient,
  stream: string,
  stage: Stage,
  maxMessages: number,
): Promise<DeliverySource> {
  const consumer = await js.consumers.get(stream, WORKERS_DURABLE);
  const messages = await consumer.consume({ max_messages: maxMessages });
  const iterator = messages[Symbol.asyncIterator]();
  // An iterator step still running after a timed-out next(); the following next() reuses it.
  let step: Promise<IteratorResult<JsMsg>> | undefined;
  let ended = false;

  const take = async (timeoutMs?: number): Promise<RawDelivery | null | undefined> => {
    if (ended) return null;
    step ??= iterator.next();
    let timer: NodeJS.Timeout | undefined;
    const res =
      timeoutMs === undefined
        ? await step
        : await Promise.race([
            step,
            new Promise<undefined>((resolve) => {
              timer = setTimeout(() => resolve(undefined), timeoutMs);
            }),
          ]);
    clearTimeout(timer);
    if (res === undefined) return undefined;
    step = undefined;
    if (res.done) {
      ended = true;
      return null;
    }
    return deliveryFromJsMsg(stage, res.value);
  };

  return {
    next: (timeoutMs) => take(timeoutMs).catch(() => null),
    async stopPulling() {
      // Not awaited: close() settles only once the iterator has been read to its end.
      void messages.close();
    },
    async finish() {
      // Acks are fire-and-forget publishes; make sure they reached the server before resolving.
      if (!nc.isClosed()) await nc.flush();
    },
  };
}
