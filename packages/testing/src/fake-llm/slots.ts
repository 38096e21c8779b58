// FIFO capacity slots inside the fake server: requests beyond capacity wait here, which is what
// lets a benchmark measure how well a client keeps the server busy.
export class SlotQueue {
  active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(public capacity: number) {}

  get queued(): number {
    return this.waiters.length;
  }

  acquire(): Promise<void> {
    if (this.active < this.capacity) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}
