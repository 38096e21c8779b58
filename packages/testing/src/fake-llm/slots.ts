// FIFO capacity slots inside the fake server: requests beyond capacity wait here, which is what
// lets a benchmark measure how well a client keeps the server busy.
//
// Slot times are kept on the simulated server's own clock. A slot is free again at the moment
// its request's latency ends (`release(freedAt)`), not when this thread gets round to sending
// the answer: on a machine shared with the client under test, a timer may fire a few
// milliseconds late, and without this each wave of requests would start that much later than a
// real server's and the lateness would add up over the waves.
export class SlotQueue {
  active = 0;
  private readonly waiters: { grant: (grantedAt: number) => void; requestedAt: number }[] = [];

  constructor(public capacity: number) {}

  get queued(): number {
    return this.waiters.length;
  }

  // Resolves with the time (epoch ms) the request got its slot: when it came in (`requestedAt`)
  // if one is free, otherwise the moment a slot was freed for it (never before it came in).
  acquire(requestedAt: number): Promise<number> {
    if (this.active < this.capacity) {
      this.active++;
      return Promise.resolve(requestedAt);
    }
    return new Promise((grant) => this.waiters.push({ grant, requestedAt }));
  }

  // `freedAt`: when the slot's request ended on the server's clock (at most now).
  release(freedAt: number): void {
    const next = this.waiters.shift();
    if (next) next.grant(Math.max(freedAt, next.requestedAt));
    else this.active--;
  }
}
