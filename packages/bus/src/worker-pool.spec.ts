import { describe, expect, it } from '@jest/globals';
import { AsyncBuffer } from './async-buffer.js';
import { GiveUpError } from './errors.js';
import type { Delivery } from './types.js';
import {
  type DeliverySource,
  type RawDelivery,
  resolveConsumeOptions,
  startWorkerPool,
} from './worker-pool.js';

interface Settled {
  id: string;
  how: 'ack' | 'nak';
  delayMs?: number;
}

function fakeSource(items: { id: string; deliveryCount: number }[]) {
  const buffer = new AsyncBuffer<RawDelivery>();
  const settled: Settled[] = [];
  for (const item of items) {
    buffer.push({
      delivery: {
        stage: 'verify',
        id: item.id,
        data: null,
        deliveryCount: item.deliveryCount,
        working: () => {},
      },
      ack: () => settled.push({ id: item.id, how: 'ack' }),
      nak: (delayMs) => settled.push({ id: item.id, how: 'nak', delayMs }),
    });
  }
  const source: DeliverySource = {
    next: (t) => buffer.next(t),
    stopPulling: async () => buffer.end(),
    finish: async () => undefined,
  };
  return { source, settled };
}

async function settle(settled: Settled[], n: number) {
  while (settled.length < n) await new Promise((r) => setTimeout(r, 1));
}

describe('worker pool', () => {
  it('acks successes, naks failures with the backoff of their attempt, dead-letters the last attempt', async () => {
    const { source, settled } = fakeSource([
      { id: 'ok', deliveryCount: 1 },
      { id: 'fail1', deliveryCount: 1 },
      { id: 'fail3', deliveryCount: 3 },
      { id: 'last', deliveryCount: 4 },
    ]);
    const dead: string[] = [];
    const handle = startWorkerPool(
      source,
      async (d: Delivery) => {
        if (d.id !== 'ok') throw new Error(`boom ${d.id}`);
      },
      { maxDeliver: 4, backoffMs: [10, 20], onError: () => undefined },
      async (raw, err) => {
        dead.push(`${raw.delivery.id}: ${(err as Error).message}`);
      },
    );
    await settle(settled, 4);
    await handle.stop();
    const by = new Map(settled.map((s) => [s.id, s]));
    expect(by.get('ok')).toEqual({ id: 'ok', how: 'ack' });
    expect(by.get('fail1')).toEqual({ id: 'fail1', how: 'nak', delayMs: 10 });
    expect(by.get('fail3')).toEqual({ id: 'fail3', how: 'nak', delayMs: 20 }); // last backoff repeats
    expect(by.get('last')).toEqual({ id: 'last', how: 'ack' });
    expect(dead).toEqual(['last: boom last']);
  });

  it('naks instead of acking when storing the dead letter fails', async () => {
    const { source, settled } = fakeSource([{ id: 'x', deliveryCount: 2 }]);
    const errors: string[] = [];
    const handle = startWorkerPool(
      source,
      async () => {
        throw new Error('bad');
      },
      { maxDeliver: 2, backoffMs: [5], onError: (e) => errors.push((e as Error).message) },
      async () => {
        throw new Error('dead-letter store down');
      },
    );
    await settle(settled, 1);
    await handle.stop();
    expect(settled).toEqual([{ id: 'x', how: 'nak', delayMs: 5 }]);
    expect(errors).toEqual(['bad', 'task x: could not store dead letter: dead-letter store down']);
  });

  it('validates options with messages naming the option', () => {
    expect(() => resolveConsumeOptions({ maxDeliver: 0 })).toThrow(/maxDeliver must be a positive integer/);
    expect(() => resolveConsumeOptions({ ackWaitMs: 10 })).toThrow(/ackWaitMs must be >= 100/);
    expect(() => resolveConsumeOptions({ backoffMs: [] })).toThrow(/backoffMs/);
    const { source } = fakeSource([]);
    expect(() =>
      startWorkerPool(
        source,
        async () => {},
        { maxInFlight: 0 },
        async () => {},
      ),
    ).toThrow(/maxInFlight must be a positive integer/);
  });

  it('retries transient failures without counting them and never dead-letters them', async () => {
    const { source, settled } = fakeSource([
      { id: 'outage', deliveryCount: 9 },
      { id: 'real', deliveryCount: 3 },
      { id: 'given-up', deliveryCount: 1 },
    ]);
    const dead: string[] = [];
    class Down extends Error {}
    const handle = startWorkerPool(
      source,
      async (d: Delivery) => {
        if (d.id === 'outage') throw new Down('database down');
        if (d.id === 'given-up') throw new GiveUpError('no more attempts');
        throw new Error('bad input');
      },
      {
        maxDeliver: 4,
        backoffMs: [10],
        transientBackoffMs: [100, 400],
        isTransient: (e) => e instanceof Down,
      },
      async (raw) => {
        dead.push(raw.delivery.id);
      },
    );
    await settle(settled, 3);
    await handle.stop();
    const byId = new Map(settled.map((s) => [s.id, s]));
    expect(byId.get('outage')?.how).toBe('nak');
    // 400 ms (the last transient delay) with up to 25 % jitter either way.
    expect(byId.get('outage')?.delayMs).toBeGreaterThanOrEqual(300);
    expect(byId.get('outage')?.delayMs).toBeLessThanOrEqual(500);
    expect(byId.get('real')).toEqual({ id: 'real', how: 'nak', delayMs: 10 });
    expect(byId.get('given-up')?.how).toBe('ack');
    expect(dead).toEqual(['given-up']);
  });

  it('lifts the server-side delivery limit for transient-aware or unlimited consumers', () => {
    expect(resolveConsumeOptions({ maxDeliver: 5 }).serverMaxDeliver).toBe(5);
    expect(resolveConsumeOptions({ maxDeliver: 5, isTransient: () => false }).serverMaxDeliver).toBe(-1);
    expect(resolveConsumeOptions({ maxDeliver: Number.POSITIVE_INFINITY }).serverMaxDeliver).toBe(-1);
    expect(() => resolveConsumeOptions({ maxDeliver: 0 })).toThrow(/positive integer or Infinity/);
    expect(() => resolveConsumeOptions({ transientBackoffMs: [] })).toThrow(/transientBackoffMs/);
  });
});
