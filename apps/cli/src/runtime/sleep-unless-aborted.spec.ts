import { getEventListeners } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { sleepUnlessAborted } from './sleep-unless-aborted.js';

describe('sleepUnlessAborted', () => {
  it('leaves no abort listener behind, so following a run never warns of a listener leak', async () => {
    const abort = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) await sleepUnlessAborted(1, abort.signal);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    expect(warnings).toEqual([]);
  });

  it('ends at once when the signal aborts', async () => {
    const abort = new AbortController();
    const slept = sleepUnlessAborted(60_000, abort.signal);
    abort.abort();
    await expect(slept).resolves.toBeUndefined();
  });
});
