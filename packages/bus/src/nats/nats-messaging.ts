import { headers, type NatsConnection, RequestError, TimeoutError } from '@nats-io/transport-node';
import { HEADER_RUN_ID } from '@precis/contracts';
import { decodeData, decodeText, encodeData, encodeText, HEADER_ENCODING, HEADER_ERROR } from '../codec.js';
import { BusTimeoutError, errorMessage, NoResponderError, RemoteHandlerError } from '../errors.js';
import type { BusData, EventHandler, ReplyHandler, RequestOptions, Subscription } from '../types.js';
import type { ConnectionWatch } from './nats-link.js';
import type { NatsNames } from './nats-queues.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
// Queue group shared by every replica answering the same request subject.
const REPLY_QUEUE = 'precis-responders';

/**
 * Core NATS messaging of a bus: request/reply and fan-out events. Subscriptions are restored by
 * the client after a reconnect; publishes made while disconnected wait for the connection.
 */
export class NatsMessaging {
  readonly subs = new Set<Subscription>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly names: NatsNames,
    private readonly link: ConnectionWatch,
    private readonly onError: (error: unknown) => void,
  ) {}

  async request(subject: string, data: BusData, opts: RequestOptions = {}): Promise<BusData> {
    const full = this.names.subject(subject);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const { body, encoding } = encodeData(data);
    const h = headers();
    h.set(HEADER_ENCODING, encoding);
    if (opts.runId) h.set(HEADER_RUN_ID, opts.runId);
    // Only the wait for the connection is retried: a request's own timeout is the responder's.
    await this.link.run(`request ${subject}`, async () => undefined);
    try {
      const reply = await this.nc.request(full, body, { timeout: timeoutMs, headers: h });
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
    const sub = this.nc.subscribe(this.names.subject(subject), {
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
    await this.link.run(`reply on ${subject}`, () => this.nc.flush());
    return this.track(sub);
  }

  async publish(subject: string, data: BusData): Promise<void> {
    const { body, encoding } = encodeData(data);
    const h = headers();
    h.set(HEADER_ENCODING, encoding);
    // While disconnected the client would buffer without bound: wait for the server instead.
    await this.link.run(`publish ${subject}`, async () => {
      this.nc.publish(this.names.subject(subject), body, { headers: h });
    });
  }

  async subscribe(subject: string, handler: EventHandler): Promise<Subscription> {
    const sub = this.nc.subscribe(this.names.subject(subject), {
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
    await this.link.run(`subscribe to ${subject}`, () => this.nc.flush());
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
}
