import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { RescoreInputError, rescoreBooookScoreFiles } from '../support/precis.js';

const dir = resolve(import.meta.dirname, './fixtures/rescore');

describe('rescoring published BooookScore annotations (no judge)', () => {
  it('gives the hand-computed values, with the unannotated summary and the unmatched annotation reported', () => {
    const r = rescoreBooookScoreFiles(resolve(dir, 'summaries.json'), resolve(dir, 'annotations.json'));
    // In percent, as a run reports BooookScore. book-a: 4 sentences, 2 confusing (quotes and
    // spacing differ from the summary) -> 50; book-b: 3 sentences, null annotations -> 100;
    // book-c: not in the file -> 100, unannotated.
    expect(r.summaries).toEqual([
      { id: 'book-a', sentences: 4, confusing: 2, score: 50 },
      { id: 'book-b', sentences: 3, confusing: 0, score: 100 },
      { id: 'book-c', sentences: 2, confusing: 0, score: 100 },
    ]);
    expect(r.systemScore).toBeCloseTo(250 / 3, 10);
    expect(r.unannotated).toEqual(['book-c']);
    expect(r.unmatchedAnnotations).toEqual([
      { id: 'book-a', sentence: 'This sentence is not in the summary at all.' },
    ]);
    // Occurrences per type over all 9 sentences, in percent.
    expect(r.errorTypesPct['entity omission']).toBeCloseTo(100 / 9, 10);
    expect(r.errorTypesPct['event omission']).toBeCloseTo(100 / 9, 10);
    expect(r.errorTypesPct.discontinuity).toBeCloseTo(100 / 9, 10);
    expect(r.errorTypesPct.language).toBe(0);
    // Std of the bootstrap means of (50, 100, 100): about sd/sqrt(3) = 23.57/1.732 = 13.6.
    expect(r.bootstrapStd).toBeGreaterThan(11);
    expect(r.bootstrapStd).toBeLessThan(16);
  });

  it('names the file and field of bad input', () => {
    expect(() =>
      rescoreBooookScoreFiles(resolve(dir, 'missing.json'), resolve(dir, 'annotations.json')),
    ).toThrow(/missing.json: cannot read the summaries file \(file not found; check the path\)$/);
    expect(() =>
      rescoreBooookScoreFiles(resolve(dir, 'annotations.json'), resolve(dir, 'annotations.json')),
    ).toThrow(RescoreInputError);
  });
});
