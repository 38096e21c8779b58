interface Waiter<T> {
  resolve: (v: T | null | undefined) => void;
  timer?: NodeJS.Timeout;
}

/**
 * FIFO hand-off between a producer (a pull subscription, a queue) and the worker pool.
 * `next()` resolves an item, `null` once ended and empty, or `undefined` on timeout.
 */
export class AsyncBuffer<T> {
  private items: T[] = [];
  private head = 0;
  private ended = false;
  private waiters: Waiter<T>[] = [];

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.resolve(item);
      return;
    }
    this.items.push(item);
  }

  end(): void {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.resolve(this.size > 0 ? this.shift() : null);
    }
  }

  /** `signal` aborts the wait (resolving `null`) without losing an item to a dead waiter. */
  next(timeoutMs?: number, signal?: AbortSignal): Promise<T | null | undefined> {
    if (signal?.aborted) return Promise.resolve(null);
    if (this.size > 0) return Promise.resolve(this.shift());
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter<T> = { resolve };
      const remove = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
      };
      const onAbort = () => {
        remove();
        if (waiter.timer) clearTimeout(waiter.timer);
        resolve(null);
      };
      if (timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          remove();
          signal?.removeEventListener('abort', onAbort);
          resolve(undefined);
        }, timeoutMs);
      }
      if (signal) {
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.resolve = (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        };
      }
      this.waiters.push(waiter);
    });
  }

  private shift(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head++;
    // Compact now and then so a long-lived buffer does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
