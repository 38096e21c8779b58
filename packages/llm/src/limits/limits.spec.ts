import { describe, expect, it } from '@jest/globals';
import { Semaphore } from './semaphore.js';
import { TokenBucket } from './token-bucket.js';

describe('semaphore', () => {
  it('grants in FIFO order up to capacity and tracks queue', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    await s.acquire();
    await s.acquire();
    const waiting = [3, 4].map((i) => s.acquire().then(() => order.push(i)));
    expect(s.inFlight).toBe(2);
    expect(s.queued).toBe(2);
    s.release();
    await waiting[0];
    expect(order).toEqual([3]);
    s.setCapacity(3);
    await waiting[1];
    expect(order).toEqual([3, 4]);
    expect(s.inFlight).toBe(3);
  });

  it('drops an aborted waiter', async () => {
    const s = new Semaphore(1);
    await s.acquire();
    const ac = new AbortController();
    const p = s.acquire(ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(s.queued).toBe(0);
  });
});

describe('token bucket', () => {
  it('refills continuously at the per-minute rate and settles estimates', async () => {
    let now = 0;
    const b = new TokenBucket(600, () => now);
    await b.take(600);
    expect(b.available).toBe(0);
    now = 1000;
    expect(b.available).toBe(10);
    b.adjust(-5);
    expect(b.available).toBe(15);
    b.adjust(20);
    expect(b.available).toBe(-5);
    now = 120_000;
    expect(b.available).toBe(600);
  });

  it('caps a request larger than the bucket so it can still run', async () => {
    const b = new TokenBucket(100, () => 0);
    await b.take(5000);
    expect(b.available).toBe(0);
  });
});
