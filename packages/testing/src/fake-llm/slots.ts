// FIFO capacity slots inside the fake server: requests beyond capacity wait here, which is what
// lets a benchmark measure how well a client keeps the server busy.
export class SlotQueue {
  active = 0;
  private readonly waiters: ((grantedAt: number) => void)[] = [];

  constructor(public capacity: number) {}

  get queued(): number {
    return this.waiters.length;
  }

  // Resolves with the time (Date.now()) the slot was granted: the moment it was free for this
  // request, which is not when the request's continuation gets to run on a busy thread.
  acquire(): Promise<number> {
    if (this.active < this.capacity) {
      this.active++;
      return Promise.resolve(Date.now());
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next(Date.now());
    else this.active--;
  }
}
