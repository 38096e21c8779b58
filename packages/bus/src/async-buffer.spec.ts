import { describe, expect, it } from '@jest/globals';
import { AsyncBuffer } from './async-buffer.js';

describe('AsyncBuffer', () => {
  it('hands items out in order, to waiters first', async () => {
    const b = new AsyncBuffer<number>();
    const waiting = b.next();
    b.push(1);
    b.push(2);
    expect(await waiting).toBe(1);
    expect(await b.next()).toBe(2);
    expect(b.size).toBe(0);
  });

  it('resolves undefined on timeout without losing a later item', async () => {
    const b = new AsyncBuffer<string>();
    expect(await b.next(5)).toBeUndefined();
    b.push('x');
    expect(await b.next(5)).toBe('x');
  });

  it('resolves null once ended and drained, and on abort', async () => {
    const b = new AsyncBuffer<number>();
    b.push(7);
    b.end();
    expect(await b.next()).toBe(7);
    expect(await b.next()).toBeNull();

    const c = new AsyncBuffer<number>();
    const ac = new AbortController();
    const pending = c.next(undefined, ac.signal);
    ac.abort();
    expect(await pending).toBeNull();
    c.push(3); // the aborted waiter must not swallow it
    expect(await c.next()).toBe(3);
  });

  it('stays correct across compaction of a long-lived buffer', async () => {
    const b = new AsyncBuffer<number>();
    for (let i = 0; i < 5000; i++) b.push(i);
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) out.push((await b.next()) as number);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });
});
