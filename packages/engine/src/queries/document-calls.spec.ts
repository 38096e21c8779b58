import { describe, expect, it } from '@jest/globals';
import { callsWithin } from './document-calls.js';
import type { LedgerCallView } from './ledger-call-view.js';

const call = (id: string, prompt: string) =>
  ({ id, messages: [{ role: 'user', content: prompt }] }) as unknown as LedgerCallView;

describe('a page of calls within a size', () => {
  it('ends before the call that would pass the size, but always holds one call', () => {
    const small = call('a', 'x'.repeat(10));
    const size = JSON.stringify(small).length;
    const calls = [small, call('b', 'x'.repeat(10)), call('c', 'x'.repeat(10))];
    expect(callsWithin(calls, 2 * size).map((c) => c.id)).toEqual(['a', 'b']);
    expect(callsWithin(calls, 2 * size - 1).map((c) => c.id)).toEqual(['a']);
    expect(callsWithin([call('huge', 'x'.repeat(1000))], 10).map((c) => c.id)).toEqual(['huge']);
    expect(callsWithin(calls, Number.POSITIVE_INFINITY)).toHaveLength(3);
  });
});
