import { type ConnectionOptions, connect, type NatsConnection } from '@nats-io/transport-node';
import { isBusUnavailableError } from '../bus-unavailable.js';
import { BusClosedError, BusUnavailableError } from '../errors.js';

/** A change of the bus connection, reported once per outage (not per message). */
export type BusConnectionEvent =
  | { type: 'disconnected'; server: string }
  | { type: 'reconnected'; server: string; downMs: number };

export interface ReconnectOptions {
  /** First delay between reconnect attempts (default 250 ms); doubles up to `reconnectMaxDelayMs`. */
  reconnectDelayMs?: number;
  /** Longest delay between reconnect attempts (default 5 s); a random jitter of up to half is added. */
  reconnectMaxDelayMs?: number;
}

/**
 * Connects with reconnects that never give up: exponential backoff with jitter (so the workers
 * of a whole cluster do not all knock at once when the server comes back). `onAttempt` lets the
 * caller reset the backoff once connected.
 */
export async function connectWithReconnect(
  base: ConnectionOptions,
  opts: ReconnectOptions,
): Promise<{ nc: NatsConnection; resetBackoff: () => void }> {
  const first = opts.reconnectDelayMs ?? 250;
  const max = opts.reconnectMaxDelayMs ?? 5_000;
  if (!(first > 0) || !(max >= first)) {
    throw new RangeError(
      `createNatsBus: need 0 < reconnectDelayMs <= reconnectMaxDelayMs (got ${first} and ${max})`,
    );
  }
  let attempt = 0;
  const nc = await connect({
    ...base,
    maxReconnectAttempts: -1,
    // Pings find a half-open connection (server host gone) in ~20 s instead of minutes.
    pingInterval: 10_000,
    maxPingOut: 2,
    reconnectDelayHandler: () => {
      const delay = Math.min(max, first * 2 ** Math.min(attempt++, 20));
      return Math.round(delay + Math.random() * (delay / 2));
    },
  });
  return {
    nc,
    resetBackoff: () => {
      attempt = 0;
    },
  };
}

const RETRY_PAUSE_MS = 200;

/**
 * Follows the connection's status: whether it is up now, one event per disconnect and per
 * reconnect, and a gate that makes publishes wait for the connection (up to `waitMs`) instead
 * of failing at once while the server restarts.
 */
export class ConnectionWatch {
  private up = true;
  private downSince = 0;
  private waiters = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly waitMs: number,
    onEvent: (event: BusConnectionEvent) => void,
    resetBackoff: () => void,
  ) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect' && this.up) {
          this.up = false;
          this.downSince = Date.now();
          onEvent({ type: 'disconnected', server: s.server });
        } else if (s.type === 'reconnect') {
          resetBackoff();
          this.up = true;
          onEvent({ type: 'reconnected', server: s.server, downMs: Date.now() - this.downSince });
          for (const wake of this.waiters) wake();
        }
      }
      this.close();
    })();
  }

  get connected(): boolean {
    return this.up && !this.closed && !this.nc.isClosed();
  }

  close(): void {
    this.closed = true;
    this.up = false;
    for (const wake of this.waiters) wake();
  }

  // Resolves once connected; false if `deadline` passed first.
  private async waitUntilUp(deadline: number): Promise<boolean> {
    while (!this.connected) {
      if (this.closed) return false;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
    return true;
  }

  /**
   * Runs `op` once the connection is up; when it fails because the bus is unreachable (timeout,
   * no JetStream responder yet, lost connection) it is retried until `waitMs` passed, then a
   * BusUnavailableError names the operation. `op` must be idempotent (publishes carry a msg id).
   */
  async run<T>(operation: string, op: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const deadline = started + this.waitMs;
    let last: unknown;
    for (;;) {
      if (this.closed) throw new BusClosedError(operation);
      if (!(await this.waitUntilUp(deadline))) break;
      try {
        return await op();
      } catch (err) {
        if (this.closed || !isBusUnavailableError(err)) throw err;
        last = err;
      }
      if (Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, Math.min(RETRY_PAUSE_MS, Math.max(0, deadline - Date.now()))));
    }
    if (this.closed) throw new BusClosedError(operation);
    throw new BusUnavailableError(operation, Date.now() - started, last);
  }
}
