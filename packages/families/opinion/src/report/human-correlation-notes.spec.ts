import { describe, expect, it } from '@jest/globals';
import type {
  DimensionCell,
  DimensionHumanCorrelation,
  DimensionLeaderboard,
} from '../dimensions/dimension-scores.js';
import { humanCorrelationNotes } from './human-correlation-notes.js';

const cell = (human: number | null): DimensionCell => ({
  mean: 4,
  ci95: [4, 4],
  bootstrapStd: 0,
  summaries: 2,
  failed: 0,
  human,
});

const correlation = (products: number, skipped: number): DimensionHumanCorrelation => ({
  spearman: products ? 0.5 : null,
  kendall: products ? 0.5 : null,
  pearson: products ? 0.5 : null,
  products,
  skipped,
  summaries: 6,
  system: { spearman: null, kendall: null, pearson: null, systems: 3 },
});

function board(human: number | null, hc: DimensionLeaderboard['humanCorrelation']): DimensionLeaderboard {
  return {
    metric: 'dimensions.0',
    family: 'op-i',
    judge: 'model:m',
    templates: {},
    samples: 1,
    temperature: 0,
    method: 'sample-mean',
    dimensions: ['fluency', 'coherence'],
    rows: [
      {
        system: 's',
        summarizer: 'dataset:s',
        dimensions: { fluency: cell(human), coherence: cell(human) },
        work: { summaries: { expected: 2, failed: 0 }, judgments: { expected: 4, failed: 0 } },
        status: 'complete',
      },
    ],
    humanCorrelation: hc,
    failedSteps: [],
    bootstrapResamples: 1000,
  };
}

describe('humanCorrelationNotes', () => {
  it('says in words that no judged summary has human ratings', () => {
    expect(humanCorrelationNotes(board(null, null))).toEqual([
      'No correlation with human ratings: none of the judged summaries has one. Ratings come with the candidate summaries of a SummEval-OP dataset (systems with `source: dataset`); generated summaries have none.',
    ]);
  });

  it('says when rated summaries exist but none was judged', () => {
    expect(humanCorrelationNotes(board(4.5, null))).toEqual([
      'No correlation with the human ratings: no rated summary has a judge score (their judgments failed).',
    ]);
  });

  it('explains products 0 and the products left out, per dimension', () => {
    const notes = humanCorrelationNotes(
      board(4.5, { fluency: correlation(0, 2), coherence: correlation(1, 1) }),
    );
    expect(notes).toEqual([
      'products = the products whose rated summaries the correlation used. A product is left out when the judge gave all its rated summaries the same score, or the human ratings of them are all equal: no correlation is defined there (n/a when no product is left). Left out: fluency 2 of 2, coherence 1 of 2.',
    ]);
  });

  it('adds nothing when every product was used', () => {
    expect(
      humanCorrelationNotes(board(4.5, { fluency: correlation(2, 0), coherence: correlation(2, 0) })),
    ).toEqual([]);
  });
});
