// FIFO counting semaphore; capacity can change at run time (a registry reload).
export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private cap: number) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  get capacity(): number {
    return this.cap;
  }

  setCapacity(n: number): void {
    this.cap = n;
    this.drain();
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.active < this.cap && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  release(): void {
    this.active--;
    this.drain();
  }

  private drain(): void {
    while (this.active < this.cap && this.waiters.length > 0) {
      this.active++;
      this.waiters.shift()!();
    }
  }
}
