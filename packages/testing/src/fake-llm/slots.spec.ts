import { describe, expect, it } from '@jest/globals';
import { SlotQueue } from './slots.js';

describe('SlotQueue', () => {
  it('grants a free slot at the arrival time, and queued requests first in, first out', async () => {
    const slots = new SlotQueue(2);
    expect(await slots.acquire(1000)).toBe(1000);
    expect(await slots.acquire(1001)).toBe(1001);
    const third = slots.acquire(1002);
    const fourth = slots.acquire(1003);
    expect(slots.queued).toBe(2);
    // The first slot's request ended at 1200 on the server's clock, whenever its timer fired.
    slots.release(1200);
    expect(await third).toBe(1200);
    slots.release(1201);
    expect(await fourth).toBe(1201);
    expect(slots.active).toBe(2);
    slots.release(1400);
    slots.release(1401);
    expect(slots.active).toBe(0);
  });

  it('never grants a slot before the request came in', async () => {
    const slots = new SlotQueue(1);
    await slots.acquire(1000);
    const late = slots.acquire(1300);
    slots.release(1200);
    expect(await late).toBe(1300);
  });
});
