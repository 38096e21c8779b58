import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ModelSpec } from '../registry/model-spec.js';
import { sleep } from './endpoint-limiter.js';
import { countInRateWindow, deleteOldRateWindows, msToNextMinute } from './limits.store.js';
import { IDLE_HOLD_MS, REUSE_WINDOW_MS, SlotPool, type SlotPoolTiming } from './pg-slot-pool.js';

// An endpoint's limits held for the whole cluster, on top of each process's own.
export interface SharedLimits {
  // Resolves with the release of a cluster-wide concurrency slot of the endpoint.
  acquireSlot(spec: ModelSpec, signal?: AbortSignal): Promise<() => void>;
  // Resolves once the cluster's requests/tokens this minute leave room for the call.
  takeRate(spec: ModelSpec, tokens: number, signal?: AbortSignal): Promise<void>;
  // Gives back what the process holds without using it (before its database connection closes).
  close(): Promise<void>;
}

const endpointKey = (spec: ModelSpec) => `${spec.name}|${spec.baseURL}|${spec.modelId}`;
// A slot a killed process held frees itself this long after its request's timeout (plus the
// reuse window, see pg-slot-pool.ts).
const LEASE_MARGIN_MS = 5_000;

// Limits in PostgreSQL, which every service already shares. A slot is a row of llm_slots claimed
// with FOR UPDATE SKIP LOCKED and released after the request, or kept a moment for the process's
// next call; a process waiting for one polls (one poller per endpoint per process). Requests and
// tokens per minute are counted per clock minute in llm_rate_windows: a call that would pass the
// limit waits for the next minute.
export class PgSharedLimits implements SharedLimits {
  private readonly pools = new Map<string, SlotPool>();
  private lastCleanup = 0;
  private readonly timing: SlotPoolTiming;

  // timing: how often a waiting process polls, and how long released slots are kept for reuse.
  constructor(
    private readonly db: DataSource,
    timing: Partial<SlotPoolTiming> = {},
    readonly holder = `${process.pid}:${randomUUID().slice(0, 8)}`,
  ) {
    this.timing = { pollMs: 20, idleHoldMs: IDLE_HOLD_MS, reuseWindowMs: REUSE_WINDOW_MS, ...timing };
  }

  acquireSlot(spec: ModelSpec, signal?: AbortSignal): Promise<() => void> {
    const key = endpointKey(spec);
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new SlotPool(this.db, key, this.holder, this.timing);
      this.pools.set(key, pool);
    }
    return pool.acquire(spec.maxConcurrency, spec.timeoutMs + LEASE_MARGIN_MS, signal);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }

  async takeRate(spec: ModelSpec, tokens: number, signal?: AbortSignal): Promise<void> {
    const rpm = spec.requestsPerMinute;
    const tpm = spec.tokensPerMinute;
    if (rpm === null && tpm === null) return;
    for (;;) {
      const counted = await countInRateWindow(
        this.db,
        endpointKey(spec),
        Math.max(0, Math.round(tokens)),
        rpm,
        tpm,
      );
      if (counted) return this.cleanup();
      const ms = await msToNextMinute(this.db);
      await sleep(ms + Math.random() * 250, signal);
    }
  }

  // Windows older than an hour are of no use; dropped at most once a minute per process.
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await deleteOldRateWindows(this.db);
  }
}
