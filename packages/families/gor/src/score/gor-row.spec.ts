import { describe, expect, it } from '@jest/globals';
import { type GorRow, type GorSample, gorRow, winRates } from './gor-row.js';

describe('winRates', () => {
  it('averages each criterion over meetings, in percent', () => {
    const rates = winRates([
      { comprehensiveness: 1, diversity: 0.5, empowerment: 0, overall: 1 },
      { comprehensiveness: 0, diversity: 0.5, empowerment: 0, overall: 0.5 },
      { comprehensiveness: 0.5, diversity: 1, empowerment: 0, overall: 1 },
      { comprehensiveness: 0.5, diversity: 0, empowerment: 1, overall: 0.5 },
    ]);
    // comprehensiveness 2/4, diversity 2/4, empowerment 1/4, overall 3/4.
    expect(rates).toEqual({ comprehensiveness: 50, diversity: 50, empowerment: 25, overall: 75 });
  });

  it('is null when no meeting was judged', () => {
    expect(winRates([])).toBeNull();
  });
});

describe('gorRow', () => {
  const head: Pick<
    GorRow,
    'system' | 'summarizer' | 'strategy' | 'ranker' | 'metric' | 'judge' | 'training' | 'pairwise'
  > = {
    system: 'gor',
    summarizer: 'engine:textrank',
    strategy: 'gor',
    ranker: 'gat',
    metric: 'rouge.0',
    judge: '',
    training: null,
    pairwise: [],
  };
  const samples: GorSample[] = [
    { order: 1, documentId: 'd1', rouge: { rouge1: 50, rouge2: 20, rougeL: 20 } },
    { order: 0, documentId: 'd0', rouge: { rouge1: 40, rouge2: 10, rougeL: 30 } },
    { order: 2, documentId: 'd2', rouge: { rouge1: 30, rouge2: 0, rougeL: 40 } },
  ];
  const opts = { resamples: 200, seed: 1 };
  const complete = { summaries: { expected: 3, failed: 0 }, judgments: { expected: 0, failed: 0 } };

  it('means ROUGE over the samples with a CI around each mean when the work is complete', () => {
    const row = gorRow(head, samples, complete, opts);
    expect(row).toMatchObject({ ...head, samples: 3, work: complete, status: 'complete' });
    expect(row.rouge).toEqual({ rouge1: 40, rouge2: 10, rougeL: 30 });
    expect(Object.keys(row.ci95).sort()).toEqual(['rouge1', 'rouge2', 'rougeL']);
    // A bootstrap CI of a mean lies within the samples' range and around the mean.
    const [lo, hi] = row.ci95.rougeL!;
    expect(lo).toBeGreaterThanOrEqual(20);
    expect(lo).toBeLessThanOrEqual(30);
    expect(hi).toBeGreaterThanOrEqual(30);
    expect(hi).toBeLessThanOrEqual(40);
    // Seeded: the same inputs give the same CI.
    expect(gorRow(head, samples, complete, opts).ci95).toEqual(row.ci95);
  });

  it('withholds ROUGE when a summary failed, and says how many', () => {
    const work = { summaries: { expected: 4, failed: 1 }, judgments: { expected: 0, failed: 0 } };
    const row = gorRow(head, samples, work, opts);
    expect([row.rouge, row.ci95, row.samples, row.status]).toEqual([
      null,
      {},
      3,
      'incomplete: 1 of 4 summaries failed',
    ]);
  });

  it('says failed when every summary failed and counts failed judgments too', () => {
    const work = { summaries: { expected: 2, failed: 2 }, judgments: { expected: 3, failed: 1 } };
    const row = gorRow(head, [], work, opts);
    expect([row.rouge, row.status]).toEqual([
      null,
      'failed: 2 of 2 summaries failed, 1 of 3 judgments failed',
    ]);
    const judged = { summaries: { expected: 3, failed: 0 }, judgments: { expected: 1, failed: 1 } };
    expect(gorRow(head, samples, judged, opts).status).toBe('failed: 1 of 1 judgment failed');
  });

  it("says 'no samples' for complete work with nothing to score", () => {
    const none = { summaries: { expected: 0, failed: 0 }, judgments: { expected: 0, failed: 0 } };
    const row = gorRow(head, [], none, opts);
    expect([row.rouge, row.ci95, row.samples, row.status]).toEqual([null, {}, 0, 'no samples']);
  });
});
