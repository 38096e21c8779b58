import { describe, expect, it } from '@jest/globals';
import type { KgdsSample } from '../sample.js';
import { kgdsRow } from './kgds-row.js';
import { scoreSample } from './sample-scores.js';

const sample: KgdsSample = {
  externalId: '0',
  paragraphs: [2, 3, 4, 6].map((index) => ({ index, text: `p${index}` })),
  utterances: [{ participant: 'Person1', utterance: 'u' }],
  gold: [2, 3],
  opinions: ['o1', 'o2'],
  facts: [],
};
const opinions = (...inferred: boolean[]) =>
  inferred.map((i, n) => ({
    opinion: `o${n + 1}`,
    inferred: i,
    ...(i ? {} : { errorType: 'IRU' as const }),
  }));
const work = { summaries: { expected: 2, failed: 0 }, judgments: { expected: 2, failed: 0 } };
const head = {
  system: 's',
  summarizer: 'engine:lead',
  metric: 'kgds.0',
  judge: 'j',
  pattern: 'ebs-aos' as const,
};

describe('KGDS sample and row scores', () => {
  it('macro-averages per-sample BSP, counts 0/0 as 0 and lists the sample', () => {
    // Sample 1: B = {2, 6} -> P 1/2, R 1/2; sample 2: B = {6} -> P 0, R 0, F1 0/0.
    const a = scoreSample(
      sample,
      { pattern: 'ebs-aos', ebs: [2, 6], aos: 'x' },
      { opinions: opinions(true, false) },
    )!;
    const b = scoreSample(
      sample,
      { pattern: 'ebs-aos', ebs: [6], aos: 'x' },
      { opinions: opinions(true, true) },
    )!;
    expect(b.zeroDivision).toEqual(['bsp.f1']);
    const row = kgdsRow(
      head,
      [
        { order: 0, document: 'd1', scores: a },
        { order: 1, document: 'd2', scores: b },
      ],
      work,
      {
        resamples: 200,
        seed: 1,
      },
    );
    expect(row.kgds?.bsp).toEqual({ precision: 25, recall: 25, f1: 25 });
    expect(row.kgds?.caoRecall).toBe(75);
    expect(row.kgds?.paragraphRatio).toBe(100 * ((2 / 4 + 1 / 4) / 2));
    expect(row.kgds?.opGm).toBeCloseTo(100 * Math.sqrt(0.25 * 0.75), 12);
    expect(row.kgds?.errorTypes.IRU).toBe(100);
    expect(row.zeroDivision).toEqual([{ document: 'd2', ratios: ['bsp.f1'] }]);
  });

  it('gives an incomplete row no numbers, and a sample without its opinions no scores', () => {
    expect(scoreSample(sample, { pattern: 'ebs-aos', ebs: [2], aos: 'x' }, {})).toBeNull();
    const failed = { ...work, judgments: { expected: 2, failed: 1 } };
    const row = kgdsRow(head, [], failed, { resamples: 200, seed: 1 });
    expect(row.kgds).toBeNull();
    expect(row.status).toBe('incomplete: 1 of 2 judgments failed');
  });
});
