import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ModelSpec } from '../registry/model-spec.js';
import { sleep } from './endpoint-limiter.js';

// An endpoint's limits held for the whole cluster, on top of each process's own.
export interface SharedLimits {
  // Resolves with the release of a cluster-wide concurrency slot of the endpoint.
  acquireSlot(spec: ModelSpec, signal?: AbortSignal): Promise<() => void>;
  // Resolves once the cluster's requests/tokens this minute leave room for the call.
  takeRate(spec: ModelSpec, tokens: number, signal?: AbortSignal): Promise<void>;
}

const endpointKey = (spec: ModelSpec) => `${spec.name}|${spec.baseURL}|${spec.modelId}`;
// A slot a killed process held frees itself this long after its request's timeout.
const LEASE_MARGIN_MS = 5_000;

// Limits in PostgreSQL, which every service already shares. A slot is a row of llm_slots claimed
// with FOR UPDATE SKIP LOCKED and released after the request; a process waiting for one polls
// (one poller per endpoint per process). Requests and tokens per minute are counted per clock
// minute in llm_rate_windows: a call that would pass the limit waits for the next minute.
export class PgSharedLimits implements SharedLimits {
  private readonly pools = new Map<string, SlotPool>();
  private lastCleanup = 0;

  constructor(
    private readonly db: DataSource,
    private readonly pollMs = 20,
    readonly holder = `${process.pid}:${randomUUID().slice(0, 8)}`,
  ) {}

  acquireSlot(spec: ModelSpec, signal?: AbortSignal): Promise<() => void> {
    const key = endpointKey(spec);
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new SlotPool(this.db, key, this.holder, this.pollMs);
      this.pools.set(key, pool);
    }
    return pool.acquire(spec.maxConcurrency, spec.timeoutMs + LEASE_MARGIN_MS, signal);
  }

  async takeRate(spec: ModelSpec, tokens: number, signal?: AbortSignal): Promise<void> {
    const rpm = spec.requestsPerMinute;
    const tpm = spec.tokensPerMinute;
    if (rpm === null && tpm === null) return;
    for (;;) {
      const rows: unknown[] = await this.db.query(
        `INSERT INTO llm_rate_windows AS w (endpoint, window_start, requests, tokens)
         VALUES ($1, date_trunc('minute', now()), 1, $2)
         ON CONFLICT (endpoint, window_start) DO UPDATE
           SET requests = w.requests + 1, tokens = w.tokens + EXCLUDED.tokens
           WHERE ($3::int IS NULL OR w.requests + 1 <= $3) AND ($4::bigint IS NULL OR w.tokens + EXCLUDED.tokens <= $4)
         RETURNING 1`,
        [endpointKey(spec), Math.max(0, Math.round(tokens)), rpm, tpm],
      );
      if (rows.length > 0) return this.cleanup();
      const [next] = await this.db.query(
        `SELECT EXTRACT(EPOCH FROM (date_trunc('minute', now()) + interval '1 minute' - now())) * 1000 AS ms`,
      );
      await sleep(Number(next.ms) + Math.random() * 250, signal);
    }
  }

  // Windows older than an hour are of no use; dropped at most once a minute per process.
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await this.db.query(`DELETE FROM llm_rate_windows WHERE window_start < now() - interval '1 hour'`);
  }
}

// One endpoint's slots as seen from this process: claims, releases, and the waiters' poller.
class SlotPool {
  private readonly waiters: { capacity: number; ttlMs: number; resolve: (slot: number) => void }[] = [];
  private polling = false;
  private rows = 0;

  constructor(
    private readonly db: DataSource,
    private readonly endpoint: string,
    private readonly holder: string,
    private readonly pollMs: number,
  ) {}

  async acquire(capacity: number, ttlMs: number, signal?: AbortSignal): Promise<() => void> {
    const slot = (await this.claim(capacity, ttlMs)) ?? (await this.wait(capacity, ttlMs, signal));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(slot);
    };
  }

  private wait(capacity: number, ttlMs: number, signal?: AbortSignal): Promise<number> {
    return new Promise((resolve, reject) => {
      const waiter = { capacity, ttlMs, resolve };
      this.waiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) {
            this.waiters.splice(i, 1);
            reject(signal.reason);
          }
        },
        { once: true },
      );
      void this.poll();
    });
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        const head = this.waiters[0]!;
        const slot = await this.claim(head.capacity, head.ttlMs).catch(() => null);
        if (slot === null) await sleep(this.pollMs * (0.5 + Math.random()));
        else if (this.waiters[0] === head) this.waiters.shift()!.resolve(slot);
        else this.release(slot);
      }
    } finally {
      this.polling = false;
    }
  }

  // A free (or expired) slot below the endpoint's capacity, or null when all are held.
  private async claim(capacity: number, ttlMs: number): Promise<number | null> {
    if (this.rows < capacity) {
      await this.db.query(
        `INSERT INTO llm_slots (endpoint, slot) SELECT $1, g FROM generate_series(0, $2 - 1) AS g ON CONFLICT DO NOTHING`,
        [this.endpoint, capacity],
      );
      this.rows = capacity;
    }
    const res = await this.db.query(
      `UPDATE llm_slots AS s SET holder = $3, expires_at = now() + $4 * interval '1 millisecond'
       FROM (SELECT slot FROM llm_slots
             WHERE endpoint = $1 AND slot < $2 AND (holder IS NULL OR expires_at < now())
             ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED) AS free
       WHERE s.endpoint = $1 AND s.slot = free.slot
       RETURNING s.slot`,
      [this.endpoint, capacity, this.holder, ttlMs],
    );
    const rows = (Array.isArray(res[0]) ? res[0] : res) as { slot: number }[];
    return rows[0] ? Number(rows[0].slot) : null;
  }

  // Best effort: a release that fails leaves the lease to expire.
  private release(slot: number): void {
    this.db
      .query(
        `UPDATE llm_slots SET holder = NULL, expires_at = NULL WHERE endpoint = $1 AND slot = $2 AND holder = $3`,
        [this.endpoint, slot, this.holder],
      )
      .catch(() => undefined)
      .finally(() => {
        if (this.waiters.length > 0) void this.poll();
      });
  }
}
