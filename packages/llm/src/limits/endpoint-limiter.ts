import type { ModelSpec } from '../registry/model-spec.js';
import type { SharedLimits } from './pg-shared-limits.js';
import { Semaphore } from './semaphore.js';
import { TokenBucket } from './token-bucket.js';

export interface EndpointLimiterStats {
  inFlight: number;
  queued: number;
  capacity: number;
  requestsAvailable: number | null;
  tokensAvailable: number | null;
}

// Everything that limits calls to one model endpoint: concurrency, requests/min, tokens/min, in
// this process and, when `shared` is given, across the cluster.
// A 429's Retry-After delays only the call that got it (see executeWithRetries): one refusal
// with a long Retry-After must not stall every other caller of the endpoint.
export class EndpointLimiter {
  readonly slots: Semaphore;
  private rpm: TokenBucket | null = null;
  private tpm: TokenBucket | null = null;
  private waitingOutside = 0;
  private spec: ModelSpec;
  // Releases of the cluster-wide slots held by calls in flight (any one frees one).
  private readonly leases: (() => void)[] = [];

  constructor(
    spec: ModelSpec,
    private readonly shared?: SharedLimits,
  ) {
    this.spec = spec;
    this.slots = new Semaphore(spec.maxConcurrency);
    this.configure(spec);
  }

  configure(spec: ModelSpec): void {
    this.spec = spec;
    this.slots.setCapacity(spec.maxConcurrency);
    this.rpm = reconfigure(this.rpm, spec.requestsPerMinute);
    this.tpm = reconfigure(this.tpm, spec.tokensPerMinute);
  }

  // Resolves once the call may start; the caller must call release() afterwards.
  async acquire(estimatedTokens: number, signal?: AbortSignal): Promise<void> {
    this.waitingOutside++;
    try {
      if (this.rpm) await this.rpm.take(1);
      if (this.tpm && estimatedTokens > 0) await this.tpm.take(estimatedTokens);
      await this.shared?.takeRate(this.spec, estimatedTokens, signal);
    } finally {
      this.waitingOutside--;
    }
    await this.slots.acquire(signal);
    if (!this.shared) return;
    try {
      this.leases.push(await this.shared.acquireSlot(this.spec, signal));
    } catch (err) {
      this.slots.release();
      throw err;
    }
  }

  release(): void {
    this.leases.pop()?.();
    this.slots.release();
  }

  // Real token usage minus what acquire() reserved.
  settleTokens(delta: number): void {
    if (this.tpm && delta !== 0) this.tpm.adjust(delta);
  }

  stats(): EndpointLimiterStats {
    return {
      inFlight: this.slots.inFlight,
      queued: this.slots.queued + this.waitingOutside,
      capacity: this.slots.capacity,
      requestsAvailable: this.rpm ? Math.floor(this.rpm.available) : null,
      tokensAvailable: this.tpm ? Math.floor(this.tpm.available) : null,
    };
  }
}

function reconfigure(bucket: TokenBucket | null, perMinute: number | null): TokenBucket | null {
  if (perMinute === null) return null;
  if (!bucket) return new TokenBucket(perMinute);
  bucket.setRate(perMinute);
  return bucket;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
