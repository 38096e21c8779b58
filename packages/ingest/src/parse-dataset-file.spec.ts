import { describe, expect, it } from '@jest/globals';
import { DatasetValidationError } from './errors.js';
import { parseDatasetText } from './parse-dataset-file.js';
import { decodeDatasetBytes, firstInvalidUtf8Offset } from './read-file.js';

function validationError(fn: () => unknown): DatasetValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DatasetValidationError) return error;
    throw error;
  }
  throw new Error('expected a DatasetValidationError');
}

const kgdsSample = {
  SBK: [
    { paragraph_index: 2, paragraph_text: 'First.' },
    { paragraph_index: 5, paragraph_text: 'Second.' },
  ],
  KGD: [{ participant: 'Person1', utterance: 'I think so.' }],
  BSP: [{ paragraph_index: 5, paragraph_text: 'Second.' }],
  CAO: ['Person1 thinks so.'],
  BSPAF: [{ paragraph_index: 5, atomic_facts: [{ atomic_fact: 'A fact.', type: 1 }] }],
  BNPAF: [
    {
      paragraph_index: 2,
      atomic_facts: [
        { atomic_fact: 'B fact.', type: 0 },
        { atomic_fact: 'C fact.', type: 4 },
      ],
    },
  ],
};

describe('parseDatasetText', () => {
  it('keeps KGDS paragraph indices, utterances and typed facts', () => {
    const parsed = parseDatasetText('kgds', 'k.json', JSON.stringify([kgdsSample]));
    expect(parsed.counts).toEqual({
      documents: 1,
      paragraphs: 2,
      supportingParagraphs: 1,
      utterances: 1,
      opinions: 1,
      keyFacts: 1,
      nonSupportingFacts: 1,
    });
    const doc = parsed.documents[0]!;
    expect(doc.chunks.map((c) => [c.kind, c.sourceIndex])).toEqual([
      ['paragraph', 2],
      ['paragraph', 5],
      ['utterance', 0],
    ]);
    expect(doc.chunks[2]!.metadata).toEqual({ participant: 'Person1' });
    expect(doc.data.supportingParagraphs).toEqual([5]);
  });

  it('names the record path of a missing KGDS field', () => {
    const broken = structuredClone(kgdsSample) as Record<string, unknown>;
    broken.KGD = [{ participant: 'Person1' }];
    const error = validationError(() =>
      parseDatasetText('kgds', 'k.json', JSON.stringify([kgdsSample, broken])),
    );
    expect(error.record).toBe('[1]');
    expect(error.field).toBe('KGD[0].utterance');
    expect(error.message).toContain('k.json: [1].KGD[0].utterance: missing required field');
  });

  it('rejects a gold paragraph that is not in the article', () => {
    const broken = { ...kgdsSample, BSP: [{ paragraph_index: 9 }] };
    const error = validationError(() => parseDatasetText('kgds', 'k.json', JSON.stringify([broken])));
    expect(error.message).toContain('[0].BSP[0].paragraph_index: paragraph 9 is not in SBK');
  });

  it('reports truncated JSON with its line', () => {
    const text = JSON.stringify([kgdsSample], null, 2);
    const error = validationError(() => parseDatasetText('kgds', 'k.json', text.slice(0, 120)));
    expect(error.message).toMatch(/k\.json: line \d+, column \d+: invalid JSON: input ends unexpectedly/);
    expect(error.message).toContain('truncated');
  });

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
    const ok = parseDatasetText('summeval-op', 's.jsonl', `${JSON.stringify(product)}\n`);
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
      parseDatasetText('summeval-op', 's.jsonl', `${JSON.stringify(product)}\n\n${JSON.stringify(bad)}\n`),
    );
    expect(error.message).toContain(
      's.jsonl: line 3, field summaries.sys.dimensions["Aspect Coverage"]: expected a number, got a string',
    );
  });

  it('rejects duplicate JSONL ids naming both lines', () => {
    const text = ['{"id":"a","text":"x"}', '{"id":"b","text":"y"}', '{"id":"a","text":"z"}'].join('\n');
    const error = validationError(() => parseDatasetText('jsonl', 'g.jsonl', text));
    expect(error.message).toContain('g.jsonl: line 3, field id: duplicate id "a" (first used on line 1)');
  });

  it('requires text in generic JSONL and checks its type', () => {
    expect(validationError(() => parseDatasetText('jsonl', 'g.jsonl', '{"id":"a"}')).message).toContain(
      'line 1, field text: missing required field',
    );
    expect(
      validationError(() => parseDatasetText('jsonl', 'g.jsonl', '{"id":"a","text":3}')).message,
    ).toContain('line 1, field text: expected a string, got a number (3)');
  });

  it('splits a book into paragraphs and strips Gutenberg boilerplate', () => {
    const book = [
      'Title: A Book',
      '',
      '*** START OF THE PROJECT GUTENBERG EBOOK A BOOK ***',
      'Chapter 1',
      '',
      'It was a dark',
      'and stormy night.',
      '',
      '',
      'The end.',
      '*** END OF THE PROJECT GUTENBERG EBOOK A BOOK ***',
      'Licence text.',
    ].join('\n');
    const parsed = parseDatasetText('text', 'book.txt', book);
    const doc = parsed.documents[0]!;
    expect(doc.title).toBe('A Book');
    expect(doc.chunks.map((c) => c.text)).toEqual([
      'Chapter 1',
      'It was a dark\nand stormy night.',
      'The end.',
    ]);
    expect(doc.text).not.toContain('Licence');
    for (const chunk of doc.chunks) {
      const { start, end } = chunk.metadata as { start: number; end: number };
      expect(doc.text.slice(start, end)).toBe(chunk.text);
    }
  });
});

describe('decodeDatasetBytes', () => {
  it('strips a BOM and normalizes CRLF', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\rc\n')]);
    expect(decodeDatasetBytes('f.txt', bytes).text).toBe('a\nb\nc\n');
  });

  it('rejects invalid UTF-8 naming the line and byte', () => {
    const bytes = Buffer.concat([Buffer.from('ok\nbad '), Buffer.from([0xe9]), Buffer.from(' here\n')]);
    expect(firstInvalidUtf8Offset(bytes)).toBe(7);
    const error = validationError(() => decodeDatasetBytes('f.txt', bytes));
    expect(error.message).toContain('f.txt: line 2: is not valid UTF-8 (invalid byte 0xe9 at byte offset 7)');
  });

  it('reads a BOM + CRLF book into the same paragraphs as its LF original', () => {
    const lf = 'Chapter 1\n\nIt was a dark\nand stormy night.\n\nThe end.\n';
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf.replace(/\n/g, '\r\n'))]);
    const fromCrlf = parseDatasetText('text', 'b.txt', decodeDatasetBytes('b.txt', crlf).text);
    expect(fromCrlf.documents[0]!.chunks).toEqual(parseDatasetText('text', 'b.txt', lf).documents[0]!.chunks);
    expect(fromCrlf.counts.paragraphs).toBe(3);
  });

  it('rejects empty files', () => {
    expect(validationError(() => decodeDatasetBytes('f.txt', Buffer.alloc(0))).message).toContain(
      'f.txt: file is empty',
    );
  });
});
