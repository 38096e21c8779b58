import { describe, expect, it } from '@jest/globals';
import { BusHealth } from './bus-health.js';

function tracker(opts: { failingAfterMs?: number; forgetAfterMs?: number } = {}) {
  let now = 1_000_000;
  const health = new BusHealth((stage) => `PRECIS_V1_${stage.toUpperCase()}_TASKS`, {
    ...opts,
    now: () => now,
  });
  return { health, advance: (ms: number) => (now += ms) };
}

describe('BusHealth', () => {
  it('reports an operation once it has failed for the threshold with no success in between', () => {
    const { health, advance } = tracker({ failingAfterMs: 20_000 });
    health.failed('summarize', 'publish', new Error('expected stream does not match'));
    advance(19_999);
    health.failed('summarize', 'publish', new Error('expected stream does not match'));
    expect(health.problems()).toEqual([]);
    advance(1);
    expect(health.problems()).toEqual([
      {
        stage: 'summarize',
        operation: 'publish',
        stream: 'PRECIS_V1_SUMMARIZE_TASKS',
        error: 'expected stream does not match',
        since: new Date(1_000_000),
        failingMs: 20_000,
        summary:
          'summarize queue (stream PRECIS_V1_SUMMARIZE_TASKS): publishing keeps failing: expected stream does not match',
      },
    ]);
  });

  it('clears on a success, and each operation of each stage is tracked on its own', () => {
    const { health, advance } = tracker({ failingAfterMs: 1_000 });
    health.failed('verify', 'consume', new Error('stream not found'));
    health.failed('verify', 'publish', new Error('no responders'));
    advance(2_000);
    health.succeeded('verify', 'publish');
    health.succeeded('summarize', 'consume');
    expect(health.problems().map((p) => p.summary)).toEqual([
      'verify queue (stream PRECIS_V1_VERIFY_TASKS): consuming keeps failing: stream not found',
    ]);
    health.succeeded('verify', 'consume');
    expect(health.problems()).toEqual([]);
    // A new failure starts a new spell: not a problem before the threshold again.
    health.failed('verify', 'consume', new Error('stream not found'));
    advance(999);
    expect(health.problems()).toEqual([]);
  });

  it('forgets a failure nothing retried, and starts over after such a silence', () => {
    const { health, advance } = tracker({ failingAfterMs: 1_000, forgetAfterMs: 60_000 });
    health.failed('score', 'read', 'timeout');
    advance(60_000);
    expect(health.problems().map((p) => [p.operation, p.error, p.failingMs])).toEqual([
      ['read', 'timeout', 60_000],
    ]);
    advance(1);
    expect(health.problems()).toEqual([]);
    health.failed('score', 'read', 'timeout');
    expect(health.problems()).toEqual([]);
  });

  it('lists the longest-failing first', () => {
    const { health, advance } = tracker({ failingAfterMs: 0 });
    health.failed('verify', 'publish', 'a');
    advance(10);
    health.failed('summarize', 'consume', 'b');
    expect(health.problems().map((p) => p.stage)).toEqual(['verify', 'summarize']);
  });

  it('refuses thresholds that cannot work', () => {
    expect(() => new BusHealth(() => 'S', { forgetAfterMs: 0 })).toThrow(
      'bus health: need failingAfterMs >= 0 and forgetAfterMs > 0 (got 20000 and 0)',
    );
  });
});
