import { describe, expect, it } from '@jest/globals';
import { bootstrapInOrder, describeWork, failedCell, type RowWork } from '@precis/engine';
import { bootstrapMean } from '@precis/metrics';
import { type BooookScoreOutcome, type StoredJudgment, scoreBooookScoreSystem } from './booookscore-row.js';

const work = (s: [number, number], j: [number, number]): RowWork => ({
  summaries: { expected: s[0], failed: s[1] },
  judgments: { expected: j[0], failed: j[1] },
});

describe('row status', () => {
  it('says what failed, with counts', () => {
    expect(describeWork(work([40, 0], [310, 0]))).toBe('complete');
    expect(describeWork(work([40, 3], [310, 12]))).toBe(
      'incomplete: 3 of 40 summaries failed, 12 of 310 judgments failed',
    );
    expect(describeWork(work([40, 0], [310, 1]))).toBe('incomplete: 1 of 310 judgments failed');
    expect(describeWork(work([2, 2], [0, 0]))).toBe('failed: 2 of 2 summaries failed');
    expect(describeWork(work([8, 0], [784, 784]))).toBe('failed: 784 of 784 judgments failed');
    expect(failedCell(work([40, 3], [310, 12]))).toBe('3 summaries, 12 judgments');
    expect(failedCell(work([40, 0], [310, 0]))).toBe('0');
    expect(failedCell(work([40, 1], [310, 1]))).toBe('1 summary, 1 judgment');
    expect(describeWork(work([1, 1], [0, 0]))).toBe('failed: 1 of 1 summary failed');
    // Rows stored before summaries were counted have none expected.
    expect(describeWork(work([0, 0], [4, 1]))).toBe('incomplete: 1 of 4 judgments failed');
  });
});

// Ten per-document values and the same values as the database might return them.
const VALUES = [0.91, 0.42, 0.77, 0.15, 0.66, 0.58, 0.33, 0.99, 0.08, 0.71];
const ORDERED = VALUES.map((value, order) => ({ order, value }));
const SHUFFLED = [7, 2, 9, 0, 4, 1, 8, 3, 6, 5].map((i) => ORDERED[i]!);

describe('bootstrap in run order', () => {
  it('gives the same CI whatever order the rows arrive in', () => {
    const opts = { resamples: 500, seed: 7 };
    const a = bootstrapInOrder(ORDERED, opts)!;
    const b = bootstrapInOrder(SHUFFLED, opts)!;
    expect(b.ci).toEqual(a.ci);
    expect(b.std).toBe(a.std);
    expect(a.mean).toBeCloseTo(0.56, 12);
    // The reason: the plain bootstrap resamples by index, so row order alone moves the CI.
    const raw = bootstrapMean(
      SHUFFLED.map((v) => v.value),
      opts,
    );
    expect(raw.ci).not.toEqual(a.ci);
    expect(bootstrapInOrder([], opts)).toBeNull();
  });
});

// A summary of `n` sentences whose sentence k is confusing when k is in `confusing`.
function judged(n: number, confusing: number[], status = 'ok'): StoredJudgment[] {
  return Array.from({ length: n }, (_, i) => ({
    unit: i + 1,
    status,
    judge: 'model:j',
    templateVersion: 'booookscore.annotate-batch@1',
    verdict: confusing.includes(i + 1)
      ? { confusing: true, types: ['entity omission'] }
      : { confusing: false, types: [] },
  }));
}

const SUMMARIES = [
  { id: 's:a', documentId: 'a', order: 0, text: 'One. Two. Three. Four.' },
  { id: 's:b', documentId: 'b', order: 1, text: 'One. Two.' },
  { id: 's:c', documentId: 'c', order: 2, text: 'One. Two. Three. Four. Five.' },
  { id: 's:d', documentId: 'd', order: 3, text: 'One. Two. Three.' },
];
const JUDGMENTS: Record<string, StoredJudgment[]> = {
  's:a': judged(4, [2]),
  's:b': judged(2, []),
  's:c': judged(5, [1, 3]),
  's:d': judged(3, [3]),
};
const opts = { expectedDocuments: 4, resamples: 300, seed: 1 };
const score = (summaries: typeof SUMMARIES, judgments = JUDGMENTS): BooookScoreOutcome =>
  scoreBooookScoreSystem(summaries, (id) => judgments[id] ?? [], opts);

describe('BooookScore of one system', () => {
  it('scores the summaries in run order whatever order they arrive in', () => {
    const a = score(SUMMARIES);
    const b = score([SUMMARIES[2]!, SUMMARIES[0]!, SUMMARIES[3]!, SUMMARIES[1]!]);
    expect(b).toEqual(a);
    expect(a.score).toBeCloseTo((0.75 + 1 + 0.6 + 2 / 3) / 4, 12);
    expect(a.status).toBe('complete');
    expect(a.work).toEqual({ summaries: { expected: 4, failed: 0 }, judgments: { expected: 14, failed: 0 } });
  });

  it('gives no score when a summary or judgments failed, and counts them', () => {
    // Document d has no summary (its summarize step died); b's judge task died (no judgments);
    // one of c's judgments failed.
    const c = judged(5, [1, 3]);
    c[4] = { ...c[4]!, status: 'failed', verdict: null };
    const r = score(SUMMARIES.slice(0, 3), { 's:a': JUDGMENTS['s:a']!, 's:c': c });
    expect([r.score, r.ci95, r.bootstrapStd]).toEqual([null, null, null]);
    expect(r.summaries).toBe(1);
    expect(r.work).toEqual({ summaries: { expected: 4, failed: 1 }, judgments: { expected: 11, failed: 3 } });
    expect(r.status).toBe('incomplete: 1 of 4 summaries failed, 3 of 11 judgments failed');
    // What was judged is still kept per summary.
    expect(r.perSummary).toEqual([{ documentId: 'a', score: 0.75, sentences: 4, confusing: 1 }]);
  });

  it('counts an empty summary as a failed summary', () => {
    const r = score([{ ...SUMMARIES[0]!, text: '   ' }], {});
    expect(r.status).toBe('failed: 4 of 4 summaries failed');
  });
});
