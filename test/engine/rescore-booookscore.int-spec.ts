import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { RescoreInputError, rescoreBooookScoreFiles } from '../support/precis.js';

const dir = resolve(import.meta.dirname, './fixtures/rescore');

describe('rescoring published BooookScore annotations (no judge)', () => {
  it('gives the hand-computed values, with the unannotated summary and the unmatched annotation reported', () => {
    const r = rescoreBooookScoreFiles(resolve(dir, 'summaries.json'), resolve(dir, 'annotations.json'));
    // book-a: 4 sentences, 2 confusing (quotes and spacing differ from the summary) -> 0.5
    // book-b: 3 sentences, null annotations -> 1; book-c: not in the file -> 1, unannotated.
    expect(r.summaries).toEqual([
      { id: 'book-a', sentences: 4, confusing: 2, score: 0.5 },
      { id: 'book-b', sentences: 3, confusing: 0, score: 1 },
      { id: 'book-c', sentences: 2, confusing: 0, score: 1 },
    ]);
    expect(r.systemScore).toBeCloseTo(2.5 / 3, 12);
    expect(r.unannotated).toEqual(['book-c']);
    expect(r.unmatchedAnnotations).toEqual([
      { id: 'book-a', sentence: 'This sentence is not in the summary at all.' },
    ]);
    // Occurrences per type over all 9 sentences.
    expect(r.errorTypes['entity omission']).toBeCloseTo(1 / 9, 12);
    expect(r.errorTypes['event omission']).toBeCloseTo(1 / 9, 12);
    expect(r.errorTypes.discontinuity).toBeCloseTo(1 / 9, 12);
    expect(r.errorTypes.language).toBe(0);
    // Std of the bootstrap means of (0.5, 1, 1): about sd/sqrt(3) = 0.2357/1.732 = 0.136.
    expect(r.bootstrapStd).toBeGreaterThan(0.11);
    expect(r.bootstrapStd).toBeLessThan(0.16);
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
