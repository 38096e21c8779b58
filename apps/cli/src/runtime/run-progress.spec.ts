import { describe, expect, it } from '@jest/globals';
import { describeOutcome, plainProgress } from './run-progress.js';
import type { StageEta } from './stage-eta.js';

describe('plain progress lines', () => {
  const usage = {
    calls: 14,
    cacheHits: 0,
    repeated: 0,
    tokensIn: 900,
    tokensOut: 100,
    tokensCached: 0,
    tokensReasoning: 0,
    costUsd: 0.0123,
    reservedUsd: 0,
  };
  const counts = (done: number, failed: number, cancelled = 0) => ({
    summarize: { total: 40, done, failed, cancelled, open: 40 - done - failed - cancelled },
  });

  it('shows each stage with its failures and ETA, "--" until a rate is known', () => {
    const etas = new Map<string, StageEta>();
    expect(plainProgress(counts(0, 0), usage, etas, 0).line).toBe(
      'summarize 0/40 ETA -- | 14 model calls, 1000 tokens, $0.0123',
    );
    // 12 finished in 6 s (2 of them failed): 2 per second, 28 left.
    expect(plainProgress(counts(10, 2), usage, etas, 6_000)).toEqual({
      progress: 'summarize 12/40 (2 failed) | 14 model calls, 1000 tokens, $0.0123',
      line: 'summarize 12/40 (2 failed) ETA 14s | 14 model calls, 1000 tokens, $0.0123',
    });
  });

  it('says the cached and reasoning tokens of the total where a model reported them', () => {
    const reasoning = { ...usage, tokensCached: 300, tokensReasoning: 80 };
    expect(plainProgress(counts(10, 2), reasoning, new Map(), 0).progress).toBe(
      'summarize 12/40 (2 failed) | 14 model calls, 1000 tokens (300 cached, 80 reasoning), $0.0123',
    );
    expect(plainProgress(counts(10, 2), { ...usage, tokensReasoning: 80 }, new Map(), 0).progress).toBe(
      'summarize 12/40 (2 failed) | 14 model calls, 1000 tokens (80 reasoning), $0.0123',
    );
  });

  it('shows the spent cost, which never goes down, and calls in flight at their reserve apart', () => {
    // Ledger states as calls are sent (reserved $0.25 each) and settle lower one by one.
    const states = [
      { costUsd: 0, reservedUsd: 0.5 },
      { costUsd: 0.0675, reservedUsd: 0.25 },
      { costUsd: 0.0675, reservedUsd: 0.5 },
      { costUsd: 0.0975, reservedUsd: 0 },
    ];
    const lines = states.map((c) => plainProgress(counts(10, 0), { ...usage, ...c }, new Map(), 0).progress);
    expect(lines.map((l) => l.split(' | ')[1])).toEqual([
      '14 model calls, 1000 tokens, $0.0000 spent (+$0.5000 reserved in flight)',
      '14 model calls, 1000 tokens, $0.0675 spent (+$0.2500 reserved in flight)',
      '14 model calls, 1000 tokens, $0.0675 spent (+$0.5000 reserved in flight)',
      '14 model calls, 1000 tokens, $0.0975',
    ]);
  });

  it('counts the tasks a stopped or cancelled run ended apart from failures', () => {
    expect(plainProgress(counts(10, 2, 28), usage, new Map(), 0).progress).toBe(
      'summarize 12/40 (2 failed, 28 cancelled) | 14 model calls, 1000 tokens, $0.0123',
    );
  });
});

describe('describeOutcome', () => {
  it('says the status, the summaries and the failures the planner recorded', () => {
    const p = {
      runId: 'r1',
      status: 'completed-with-failures' as const,
      summaries: { expected: 4, done: 3, failed: 1 },
      tasks: {
        summarize: { total: 20, done: 18, failed: 2, cancelled: 0 },
        verify: { total: 26, done: 0, failed: 26, cancelled: 0 },
        score: { total: 1, done: 1, failed: 0, cancelled: 0 },
      },
      dispatched: 0,
      error: '1 of 4 summaries failed; 2 of 20 summarize tasks failed; 26 of 26 verify tasks failed',
    };
    expect(describeOutcome(p)).toBe(
      'run r1: completed-with-failures; summaries 3/4 (1 failed); 1 of 4 summaries failed; 2 of 20 summarize tasks failed; 26 of 26 verify tasks failed',
    );
  });
});
