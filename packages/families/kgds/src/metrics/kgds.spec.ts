import { describe, expect, it } from '@jest/globals';
import {
  bspScore,
  caoRecall,
  kbsafScore,
  macroAverage,
  opGeometricMean,
  opinionErrorDistribution,
  paragraphRetrievalRatio,
} from './kgds.js';

describe('KGDS metrics', () => {
  it('BSP precision counts only predictions inside the article', () => {
    // Article paragraphs 1,2,4,5,7 (gaps are removed boundary paragraphs); gold S = {2, 5}.
    const s = bspScore({ predicted: [2, 4, 4, 9], gold: [2, 5], article: [1, 2, 4, 5, 7] });
    // B ∩ S = {2}; B ∩ (S ∪ Nₚ) = {2, 4}; 9 is ignored.
    expect(s.recall).toBeCloseTo(0.5, 14);
    expect(s.precision).toBeCloseTo(0.5, 14);
    expect(s.f1).toBeCloseTo(0.5, 14);
    expect(s.outsideArticle).toEqual([9]);
    expect(s.flagged).toBe(false);
  });

  it('BSP 0/0 is 0 and flagged', () => {
    const s = bspScore({ predicted: [], gold: [3], article: [1, 3] });
    expect(s).toMatchObject({ precision: 0, recall: 0, f1: 0, flagged: true });
    expect(s.zeroDivision).toEqual({ precision: true, recall: false, f1: true });
  });

  it('KBSAF precision and recall', () => {
    // K: 4 facts, 3 inferred; N: 3 facts, 1 inferred. R = 3/4, P = 3/4, F1 = 3/4.
    const s = kbsafScore([true, true, false, true], [false, true, false]);
    expect(s.recall).toBeCloseTo(0.75, 14);
    expect(s.precision).toBeCloseTo(0.75, 14);
    expect(s.f1).toBeCloseTo(0.75, 14);
    const none = kbsafScore([false, false], [false]);
    expect(none).toMatchObject({ precision: 0, recall: 0, f1: 0, flagged: true });
  });

  it('CAO recall, error distribution, OP_GM, retrieval ratio, macro average', () => {
    expect(caoRecall([true, false, true, true])).toEqual({ recall: 0.75, flagged: false });
    expect(caoRecall([])).toEqual({ recall: 0, flagged: true });
    expect(opinionErrorDistribution(['OFI', 'OM', 'OM', 'IRU'])).toEqual({
      OFI: 0.25,
      OSD: 0,
      IRU: 0.25,
      IRIC: 0,
      OM: 0.5,
    });
    expect(opinionErrorDistribution([])).toEqual({ OFI: 0, OSD: 0, IRU: 0, IRIC: 0, OM: 0 });
    expect(opGeometricMean(0.64, 0.81)).toBeCloseTo(0.72, 14);
    expect(() => opGeometricMean(64, 0.81)).toThrow(/fraction/);
    expect(paragraphRetrievalRatio([1, 2, 2], 8)).toBeCloseTo(0.25, 14);
    expect(macroAverage([0.2, 0.4, 0.9])).toBeCloseTo(0.5, 14);
  });
});
