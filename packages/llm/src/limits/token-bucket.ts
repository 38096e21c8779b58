// Per-minute budget (requests or tokens) as a token bucket: holds at most one minute's worth,
// refills continuously. Waiters are served in FIFO order so a big request is not starved.
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly waiters: { need: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perMinute;
    this.last = now();
  }

  setRate(perMinute: number): void {
    this.refill();
    this.perMinute = perMinute;
    this.tokens = Math.min(this.tokens, perMinute);
    this.pump();
  }

  get available(): number {
    this.refill();
    return this.tokens;
  }

  get queued(): number {
    return this.waiters.length;
  }

  // Waits until `n` tokens are available (n is capped at the bucket size so it always can).
  take(n: number): Promise<void> {
    const need = Math.min(n, this.perMinute);
    this.refill();
    if (this.waiters.length === 0 && this.tokens >= need) {
      this.tokens -= need;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push({ need, resolve });
      this.pump();
    });
  }

  // Corrects an estimate once the real usage is known (positive = took too few).
  adjust(delta: number): void {
    this.refill();
    this.tokens = Math.min(this.perMinute, this.tokens - delta);
    this.pump();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.perMinute, this.tokens + ((t - this.last) * this.perMinute) / 60_000);
    this.last = t;
  }

  private pump(): void {
    this.refill();
    while (this.waiters.length > 0 && this.tokens >= this.waiters[0]!.need) {
      const w = this.waiters.shift()!;
      this.tokens -= w.need;
      w.resolve();
    }
    if (this.waiters.length > 0 && this.timer === null) {
      const deficit = this.waiters[0]!.need - this.tokens;
      const ms = Math.max(1, Math.ceil((deficit * 60_000) / this.perMinute));
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, ms);
    }
  }
}
