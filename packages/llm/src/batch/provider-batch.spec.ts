import { describe, expect, it } from '@jest/globals';
import { BatchFileError, batchInputFiles } from './provider-batch.js';

const req = (i: number, words = 1) => ({
  customId: `k${i}`,
  body: { model: 'm', messages: [{ role: 'user', content: 'x '.repeat(words).trim() }] },
});

describe('batchInputFiles', () => {
  it('writes one OpenAI batch line per call, in order', () => {
    const [file] = batchInputFiles([req(1), req(2)], '/v1/chat/completions', {
      maxRequests: 10,
      maxBytes: 10_000,
    });
    expect(
      file!
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { custom_id: 'k1', method: 'POST', url: '/v1/chat/completions', body: req(1).body },
      { custom_id: 'k2', method: 'POST', url: '/v1/chat/completions', body: req(2).body },
    ]);
  });

  it('starts a new file at maxRequests lines and before maxBytes would be passed', () => {
    const seven = Array.from({ length: 7 }, (_, i) => req(i));
    const byCount = batchInputFiles(seven, '/v1/chat/completions', { maxRequests: 3, maxBytes: 1e6 });
    expect(byCount.map((f) => f.split('\n').filter(Boolean).length)).toEqual([3, 3, 1]);
    const line = Buffer.byteLength(byCount[2]!);
    const bySize = batchInputFiles(seven, '/v1/chat/completions', {
      maxRequests: 100,
      maxBytes: 2 * line + 1,
    });
    expect(bySize.map((f) => f.split('\n').filter(Boolean).length)).toEqual([2, 2, 2, 1]);
    for (const f of bySize) expect(Buffer.byteLength(f)).toBeLessThanOrEqual(2 * line + 1);
  });

  it('refuses a call larger than a whole file, naming it', () => {
    expect(() =>
      batchInputFiles([req(1), req(2, 500)], '/v1/chat/completions', { maxRequests: 10, maxBytes: 300 }),
    ).toThrow(
      new BatchFileError(
        'call k2 alone is 1126 bytes, over the batch file limit of 300 bytes (registry batch.maxBytes): send it online',
      ),
    );
  });
});
