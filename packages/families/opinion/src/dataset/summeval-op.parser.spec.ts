import { describe, expect, it } from '@jest/globals';
import { DatasetValidationError, parseDatasetText } from '@precis/ingest';
import { summevalOpDatasetKind } from './summeval-op-kind.js';

const KIND = summevalOpDatasetKind.name;
const KINDS = new Map([[KIND, summevalOpDatasetKind]]);
const parse = (file: string, text: string) => parseDatasetText(KIND, file, text, undefined, undefined, KINDS);

function validationError(fn: () => unknown): DatasetValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DatasetValidationError) return error;
    throw error;
  }
  throw new Error('expected a DatasetValidationError');
}

describe('the summeval-op dataset kind', () => {
  it('maps SummEval-OP dimensions to canonical ids and names a wrongly typed rating', () => {
    const product = {
      reviews: { rev1: 'Good.', rev2: 'Bad.' },
      summaries: {
        sys: {
          summary: 'Mixed.',
          dimensions: {
            Fluency: 4,
            Coherence: 3,
            Relevance: 3,
            Faithfulness: 4.33,
            'Aspect Coverage': 2,
            'Sentiment Consistency': 3.67,
            Specificity: 1,
          },
        },
      },
    };
    const ok = parse('s.jsonl', `${JSON.stringify(product)}\n`);
    expect(ok.counts).toEqual({ documents: 1, products: 1, reviews: 2, summaries: 1 });
    expect(ok.documents[0]!.data.summaries).toEqual([
      {
        system: 'sys',
        summary: 'Mixed.',
        ratings: {
          fluency: 4,
          coherence: 3,
          relevance: 3,
          faithfulness: 4.33,
          aspect_coverage: 2,
          sentiment_consistency: 3.67,
          specificity: 1,
        },
      },
    ]);
    const bad = structuredClone(product);
    (bad.summaries.sys.dimensions as Record<string, unknown>)['Aspect Coverage'] = 'high';
    const error = validationError(() =>
      parse('s.jsonl', `${JSON.stringify(product)}\n\n${JSON.stringify(bad)}\n`),
    );
    expect(error.message).toContain(
      's.jsonl: line 3, field summaries.sys.dimensions["Aspect Coverage"]: expected a number, got a string',
    );
  });

  it('refuses JSON nested deeper than the limit', () => {
    const deep = `${'['.repeat(65)}1${']'.repeat(65)}`;
    expect(validationError(() => parse('op.jsonl', `${deep}\n`)).message).toMatch(
      /^op\.jsonl: line 1: JSON nested more than 64 levels deep/,
    );
  });
});
