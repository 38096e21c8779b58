import { AckPolicy, DeliverPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { type NatsConnection, nanos, nuid } from '@nats-io/transport-node';
import { HEADER_RUN_ID, HEADER_TASK_ID, type Stage } from '@precis/contracts';
import { decodeData, decodeText, HEADER_ENCODING, HEADER_ERROR } from '../codec.js';
import { errorMessage } from '../errors.js';
import type { DeadLetter, Subscription } from '../types.js';
import { type NatsNames, WORKERS_DURABLE } from './nats-queues.js';

export const HEADER_DELIVERY_COUNT = 'Precis-Delivery-Count';
export const HEADER_FAILED_AT = 'Precis-Failed-At';
// Set on every task publish (only the stage's stream may store it): a stored task's headers,
// copied into a dead letter, must lose it or the dead-letter stream refuses the publish.
export const HEADER_EXPECTED_STREAM = 'Nats-Expected-Stream';

/** Reads every dead letter stored for one stage (oldest first) through a short-lived consumer. */
export async function readDeadLetters(
  js: JetStreamClient,
  jsm: JetStreamManager,
  names: NatsNames,
  stage: Stage,
): Promise<DeadLetter[]> {
  const stream = names.deadLetterStream();
  const name = `dlq-reader-${nuid.next()}`;
  const info = await jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: names.deadLetterSubject(stage),
    inactive_threshold: nanos(60_000),
  });
  const out: DeadLetter[] = [];
  try {
    const consumer = await js.consumers.get(stream, name);
    let remaining = info.num_pending;
    while (remaining > 0) {
      const batch = await consumer.fetch({ max_messages: remaining, expires: 2_000 });
      let got = 0;
      for await (const m of batch) {
        got++;
        const h = m.headers;
        out.push({
          stage,
          id: h?.get(HEADER_TASK_ID) ?? '',
          runId: h?.get(HEADER_RUN_ID) || undefined,
          data: decodeData(m.data, h?.get(HEADER_ENCODING)),
          deliveryCount: Number(h?.get(HEADER_DELIVERY_COUNT) || 0),
          error: h?.get(HEADER_ERROR) ?? '',
          failedAt: h?.get(HEADER_FAILED_AT) || m.time.toISOString(),
        });
      }
      if (got === 0) break;
      remaining -= got;
    }
  } finally {
    await jsm.consumers.delete(stream, name).catch(() => undefined);
  }
  return out;
}

/**
 * A message whose last allowed delivery was never acked (the worker died or hung past ack-wait)
 * is skipped by the server with a MAX_DELIVERIES advisory but stays in the work-queue stream.
 * This moves it to the dead-letter stream; the queue group makes one bus instance handle each.
 */
export function watchMaxDeliveries(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  names: NatsNames,
  stage: Stage,
  onError: (err: unknown) => void,
): Subscription {
  const stream = names.taskStream(stage);
  const subject = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${WORKERS_DURABLE}`;
  const sub = nc.subscribe(subject, {
    queue: `precis-dlq-${stream}`,
    callback: (err, msg) => {
      if (err) return onError(err);
      void (async () => {
        try {
          const advisory = JSON.parse(decodeText(msg.data)) as { stream_seq: number; deliveries: number };
          const stored = await jsm.streams.getMessage(stream, { seq: advisory.stream_seq });
          if (!stored) return;
          const h = stored.header;
          h.delete(HEADER_EXPECTED_STREAM);
          h.set(
            HEADER_ERROR,
            `not acked after ${advisory.deliveries} deliveries: ack wait expired each time`,
          );
          h.set(HEADER_DELIVERY_COUNT, String(advisory.deliveries));
          h.set(HEADER_FAILED_AT, new Date().toISOString());
          await js.publish(names.deadLetterSubject(stage), stored.data, { headers: h });
          await jsm.streams.deleteMessage(stream, advisory.stream_seq, false);
        } catch (e) {
          onError(new Error(`dead-lettering a message of ${stream} failed: ${errorMessage(e)}`));
        }
      })();
    },
  });
  return {
    unsubscribe: async () => {
      sub.unsubscribe();
    },
  };
}
