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

describe('parseDatasetText', () => {
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
