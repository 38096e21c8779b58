import type { DataSource } from 'typeorm';
import { sleep } from './endpoint-limiter.js';
import { claimSlot, ensureSlots, releaseSlot } from './limits.store.js';

// A slot this process released stays its own this long, so its next call takes it without the
// two statements (claim, release) a call costs otherwise. A call waiting here takes it at once.
export const IDLE_HOLD_MS = 50;
// Leases run this much past what one request needs: a held slot may start calls for this long
// after its claim, and each call still ends before the lease does. Short, since a killed
// process's slots stay taken this much longer; a busy slot is claimed again once per window.
export const REUSE_WINDOW_MS = 2_000;

export interface SlotPoolTiming {
  // Pause between a waiting process's claims (jittered).
  pollMs: number;
  idleHoldMs: number;
  reuseWindowMs: number;
}

interface HeldSlot {
  slot: number;
  // When its lease ends at the latest, by this process's clock (read before the claim).
  leaseEnd: number;
  // The request timeout + margin it was claimed for.
  ttlMs: number;
}

// A held slot as a call of `ttlMs` starting at `now` may use it: below the endpoint's capacity,
// and its lease outlasts the call. Null otherwise.
function forCall(s: HeldSlot, capacity: number, ttlMs: number, now: number): HeldSlot | null {
  return s.slot < capacity && now + ttlMs < s.leaseEnd ? { slot: s.slot, leaseEnd: s.leaseEnd, ttlMs } : null;
}

interface IdleSlot extends HeldSlot {
  timer: NodeJS.Timeout;
}

// One endpoint's slots as seen from this process: claims, idle slots kept for reuse, releases,
// and the waiters' poller.
export class SlotPool {
  private readonly waiters: { capacity: number; ttlMs: number; resolve: (slot: HeldSlot) => void }[] = [];
  private readonly idle: IdleSlot[] = [];
  private polling = false;
  private rows = 0;
  // The insert of missing slot rows under way: claims that start together share it.
  private ensuring: Promise<void> | null = null;
  private closed = false;
  // Until when this process's poller leaves the database's free slots to other processes.
  private holdOffUntil = 0;
  // Releases under way. The row of a slot being given back is locked, so a claim meanwhile
  // (SKIP LOCKED) passes over it and may find nothing: such a claim waits for them and tries again.
  private readonly releasing = new Set<Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly endpoint: string,
    private readonly holder: string,
    private readonly timing: SlotPoolTiming,
  ) {}

  async acquire(capacity: number, ttlMs: number, signal?: AbortSignal): Promise<() => void> {
    // Behind calls already waiting here: a claim of its own would find no slot either.
    const held =
      this.takeIdle(capacity, ttlMs) ??
      (this.waiters.length === 0 ? await this.claimAfterReleases(capacity, ttlMs) : null) ??
      (await this.wait(capacity, ttlMs, signal));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.putBack(held);
    };
  }

  // Hands back every idle slot (a process that stops should not hold any until its lease ends).
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((s) => this.releaseNow(s)));
  }

  // An idle slot whose lease outlasts a call starting now, if any.
  private takeIdle(capacity: number, ttlMs: number): HeldSlot | null {
    const now = Date.now();
    while (this.idle.length > 0) {
      const s = this.idle.pop()!;
      clearTimeout(s.timer);
      const held = forCall(s, capacity, ttlMs, now);
      if (held) return held;
      void this.releaseNow(s);
    }
    return null;
  }

  // To the next call waiting here while the lease covers it (no statement), else kept idle for a
  // moment. A slot whose lease is spent goes back to the database; if calls wait here, this
  // process's poller then holds off, so that another waiting process's poller takes it first:
  // under contention slots change hands once per lease (peer-load, 2 verifiers at one endpoint:
  // each call had claimed and released its slot, 5,034 slot statements for 2,002 calls).
  private putBack(s: HeldSlot): void {
    const now = Date.now();
    const next = this.waiters[0];
    const handed = !this.closed && next ? forCall(s, next.capacity, next.ttlMs, now) : null;
    if (next && handed) {
      this.waiters.shift();
      next.resolve(handed);
      return;
    }
    if (this.closed || next || now + s.ttlMs >= s.leaseEnd) {
      // Longer than a poller's pause (0.5-1.5 poll intervals): every waiting process polls meanwhile.
      if (next) this.holdOffUntil = now + 2 * this.timing.pollMs;
      void this.releaseNow(s);
      return;
    }
    const idle: IdleSlot = { ...s, timer: setTimeout(() => this.expireIdle(idle), this.timing.idleHoldMs) };
    // A process exiting without close() leaves the lease to expire rather than waiting here.
    idle.timer.unref();
    this.idle.push(idle);
  }

  private expireIdle(s: IdleSlot): void {
    const i = this.idle.indexOf(s);
    if (i < 0) return;
    this.idle.splice(i, 1);
    void this.releaseNow(s);
  }

  private wait(capacity: number, ttlMs: number, signal?: AbortSignal): Promise<HeldSlot> {
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
        const holdOff = this.holdOffUntil - Date.now();
        if (holdOff > 0) await sleep(holdOff);
        const head = this.waiters[0];
        if (!head) break;
        const slot = await this.claimAfterReleases(head.capacity, head.ttlMs).catch(() => null);
        if (slot === null) await sleep(this.timing.pollMs * (0.5 + Math.random()));
        else if (this.waiters[0] === head) this.waiters.shift()!.resolve(slot);
        else this.putBack(slot);
      }
    } finally {
      this.polling = false;
    }
  }

  // A free (or expired) slot below the endpoint's capacity, or null when all are held.
  private async claim(capacity: number, ttlMs: number): Promise<HeldSlot | null> {
    while (this.rows < capacity) {
      this.ensuring ??= ensureSlots(this.db, this.endpoint, capacity)
        .then(() => {
          this.rows = Math.max(this.rows, capacity);
        })
        .finally(() => {
          this.ensuring = null;
        });
      await this.ensuring;
    }
    // Read before the statement: the lease the database sets ends no sooner than this + the TTL.
    const claimedAt = Date.now();
    const slot = await claimSlot(
      this.db,
      this.endpoint,
      capacity,
      this.holder,
      ttlMs + this.timing.reuseWindowMs,
    );
    if (slot === null) return null;
    return { slot, leaseEnd: claimedAt + ttlMs + this.timing.reuseWindowMs, ttlMs };
  }

  // A claim; when it finds every slot held while this process is giving some back, another once
  // those releases are done.
  private async claimAfterReleases(capacity: number, ttlMs: number): Promise<HeldSlot | null> {
    const slot = await this.claim(capacity, ttlMs);
    if (slot !== null || this.releasing.size === 0) return slot;
    await Promise.all(this.releasing);
    return this.claim(capacity, ttlMs);
  }

  // Best effort: a release that fails leaves the lease to expire.
  private releaseNow(s: HeldSlot): Promise<void> {
    const done = releaseSlot(this.db, this.endpoint, s.slot, this.holder).catch(() => undefined);
    this.releasing.add(done);
    return done.finally(() => {
      this.releasing.delete(done);
      if (this.waiters.length > 0) void this.poll();
    });
  }
}
