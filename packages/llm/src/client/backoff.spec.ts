import { describe, expect, it } from '@jest/globals';
import { backoffDelayMs, parseRetryAfterMs } from './backoff.js';

const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });

describe('backoff', () => {
  const opts = { baseMs: 100, maxMs: 1000 };

  it('grows the full-jitter ceiling exponentially and caps it', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, opts, top))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelayMs(3, opts, () => 0)).toBe(0);
    expect(backoffDelayMs(3, opts, () => 0.5)).toBe(200);
  });

  it('never waits less than Retry-After, adding at most 10% (<= 1 s) jitter', () => {
    expect(backoffDelayMs(1, { ...opts, retryAfterMs: 2000 }, () => 0)).toBe(2000);
    expect(backoffDelayMs(1, { ...opts, retryAfterMs: 2000 }, () => 0.999)).toBe(2200);
    expect(backoffDelayMs(1, { ...opts, retryAfterMs: 60_000 }, () => 0.999)).toBe(60_999);
    expect(backoffDelayMs(7, { ...opts, retryAfterMs: 0 }, () => 0.5)).toBe(0);
  });

  it('parses Retry-After seconds, HTTP dates and retry-after-ms (larger wins)', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfterMs(headers({ 'retry-after': '1', 'retry-after-ms': '1500' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }))).toBeNull();
    expect(parseRetryAfterMs(headers({}))).toBeNull();
    expect(parseRetryAfterMs(undefined)).toBeNull();
  });
});
