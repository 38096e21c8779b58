import { describe, expect, it } from '@jest/globals';
import { createServiceLogger } from '../logging/create-logger.js';
import { retryUntil, StartupError } from './retry-until.js';

const logger = createServiceLogger({ service: 't', version: '0', level: 'silent' });

function clock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe('retryUntil', () => {
  it('returns once an attempt succeeds', async () => {
    let calls = 0;
    const value = await retryUntil(
      async () => {
        if (++calls < 3) throw new Error('ECONNREFUSED');
        return 'up';
      },
      { what: 'db', hint: 'h', timeoutMs: 10_000, logger, ...clock() },
    );
    expect(value).toBe('up');
    expect(calls).toBe(3);
  });

  it('gives up after the budget with what, cause and hint in the message', async () => {
    const err = await retryUntil(
      async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
      {
        what: 'PostgreSQL at postgres://h/db',
        hint: 'Check DATABASE_URL.',
        timeoutMs: 3000,
        logger,
        ...clock(),
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(
      /^gave up on PostgreSQL at postgres:\/\/h\/db after \d+ attempt\(s\) in 3000 ms \(STARTUP_TIMEOUT_MS\): connect ECONNREFUSED 127.0.0.1:1\. Check DATABASE_URL\.$/,
    );
  });
});
