import { describe, expect, it } from '@jest/globals';
import { booookScoreForSummary, systemBooookScore, verdictsFromAnnotations } from './booookscore.js';

const ok = { confusing: false };

describe('BooookScore', () => {
  it('scores a summary as the share of sentences without confusion', () => {
    const s = booookScoreForSummary([
      ok,
      { confusing: true, types: ['entity omission', 'causal omission', 'entity omission'] },
      ok,
      { confusing: true, types: ['duplication'] },
    ]);
    expect(s.score).toBeCloseTo(0.5, 14);
    expect(s.sentences).toBe(4);
    expect(s.confusingSentences).toBe(2);
    // A type repeated within one sentence counts once.
    expect(s.typeCounts).toEqual({ 'entity omission': 1, 'causal omission': 1, duplication: 1 });
    expect(booookScoreForSummary([]).score).toBeNaN();
  });

  it('system mean, bootstrap std and error-type distribution', () => {
    const a = booookScoreForSummary([ok, ok, ok, { confusing: true, types: ['salience'] }]);
    const b = booookScoreForSummary([ok, { confusing: true, types: ['salience', 'language'] }]);
    const empty = booookScoreForSummary([]);
    const sys = systemBooookScore([a, b, empty], {
      seed: 11,
      knownTypes: ['salience', 'language', 'discontinuity'],
    });
    expect(sys.mean).toBeCloseTo((0.75 + 0.5) / 2, 14);
    expect(sys.summaries).toBe(2);
    expect(sys.emptySummaries).toEqual([2]);
    // 6 sentences in all: salience twice, language once, discontinuity never.
    expect(sys.errorTypeDistribution).toEqual({ salience: 2 / 6, language: 1 / 6, discontinuity: 0 });
    // Two values 0.75 / 0.5: resampled means are 0.5, 0.625 or 0.75, so the std is at most 0.125.
    expect(sys.bootstrapStd).toBeGreaterThan(0);
    expect(sys.bootstrapStd).toBeLessThanOrEqual(0.125);
    expect(sys.ci[0]).toBeGreaterThanOrEqual(0.5);
    expect(sys.ci[1]).toBeLessThanOrEqual(0.75);
  });

  it('no usable summaries gives NaN, not a score', () => {
    const sys = systemBooookScore([booookScoreForSummary([])]);
    expect(sys.mean).toBeNaN();
    expect(sys.summaries).toBe(0);
  });

  it('turns published annotations into verdicts and reports unmatched ones', () => {
    const sentences = ['Ned rides north.', 'He  meets the king.', 'The end.'];
    const r = verdictsFromAnnotations(sentences, {
      'He meets the king.': { questions: 'Which king?', types: ['entity omission'] },
      'A sentence not in the summary.': { types: ['language'] },
    });
    expect(r.verdicts).toEqual([ok, { confusing: true, types: ['entity omission'] }, ok]);
    expect(r.unmatched).toEqual(['A sentence not in the summary.']);
    expect(booookScoreForSummary(r.verdicts).score).toBeCloseTo(2 / 3, 14);
    expect(verdictsFromAnnotations(sentences, null).verdicts).toEqual([ok, ok, ok]);
  });
});
