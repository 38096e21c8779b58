import { describe, expect, it } from '@jest/globals';
import { RunStatus } from '@precis/contracts';
import type { RunEntity } from '@precis/db';
import { fromProtoRunStatus, taskCountsMap, toProtoRun } from './run.mapper.js';

describe('run mapper', () => {
  it('reports task counts in total and per stage', () => {
    expect(
      taskCountsMap({
        summarize: { total: 5, done: 3, failed: 1, cancelled: 0, open: 1 },
        verify: { total: 4, done: 0, failed: 0, cancelled: 2, open: 2 },
      }),
    ).toEqual({
      done: 3,
      failed: 1,
      cancelled: 2,
      open: 3,
      'summarize.total': 5,
      'summarize.done': 3,
      'summarize.failed': 1,
      'summarize.cancelled': 0,
      'summarize.open': 1,
      'verify.total': 4,
      'verify.done': 0,
      'verify.failed': 0,
      'verify.cancelled': 2,
      'verify.open': 2,
    });
  });

  it('maps a run row and its status both ways', () => {
    const created = new Date('2026-01-02T03:04:05Z');
    const run = {
      id: 'r1',
      name: 'books',
      status: 'stopped',
      spec: { name: 'books', datasets: [{ name: 'book' }] },
      specSha256: 'abc',
      costLimitUsd: '2.5000',
      error: 'cancelled',
      createdAt: created,
      updatedAt: created,
      startedAt: null,
      finishedAt: created,
    } as unknown as RunEntity;
    const usage = {
      calls: 12,
      cacheHits: 3,
      repeated: 1,
      tokensIn: 9000,
      tokensOut: 1200,
      tokensCached: 4096,
      tokensReasoning: 800,
      costUsd: 0.25,
      reservedUsd: 0.5,
    };
    const headline = {
      section: 'booookscore.0',
      title: 'BooookScore (coherence)',
      metric: 'BooookScore',
      system: 'hier',
      score: 92.5,
      higherIsBetter: true,
      rankLabel: '=1',
      tiedWith: 1,
    };
    const proto = toProtoRun(run, { usage, headline });
    expect(proto).toMatchObject({
      id: 'r1',
      status: RunStatus.RUN_STATUS_STOPPED,
      specJson: '{"name":"books","datasets":[{"name":"book"}]}',
      costLimitUsd: 2.5,
      error: 'cancelled',
      startTime: undefined,
      finishTime: created,
      costUsd: 0.25,
      reservedUsd: 0.5,
      datasets: ['book'],
      headline,
      usage: {
        calls: 12,
        cacheHits: 3,
        repeated: 1,
        tokensIn: 9000,
        tokensOut: 1200,
        tokensCached: 4096,
        tokensReasoning: 800,
      },
    });
    // A listed run carries its cost figures, not the whole usage.
    expect(toProtoRun(run, { cost: { costUsd: 0.1, reservedUsd: 0 } })).toMatchObject({
      costUsd: 0.1,
      reservedUsd: 0,
      usage: undefined,
      headline: undefined,
    });
    expect(fromProtoRunStatus(RunStatus.RUN_STATUS_RUNNING)).toBe('running');
    expect(fromProtoRunStatus(RunStatus.RUN_STATUS_UNSPECIFIED)).toBeNull();
  });
});
