import { describe, expect, it } from '@jest/globals';
import * as metrics from './index.js';

describe('@precis/metrics entry point', () => {
  it('exports the public API', () => {
    for (const name of [
      'RougeScorer',
      'rougeTokenize',
      'porterStem',
      'spearman',
      'kendallTauB',
      'pearson',
      'krippendorffAlpha',
      'bootstrapMean',
      'mannWhitneyU',
      'welchTTest',
      'normalCdf',
      'summaryLevelCorrelation',
      'systemLevelCorrelation',
      'recallAtK',
      'coverAtK',
    ]) {
      expect(typeof (metrics as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
