import { describe, expect, it } from '@jest/globals';
import { IMPORT_LIMITS } from './limits.js';
import { parseDatasetText } from './parse-dataset-file.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

describe('import limits', () => {
  it('refuses NUL characters where they are, raw or escaped', () => {
    expect(messageOf(() => parseDatasetText('text', 'book.txt', 'One.\n\nTwo\u0000 three.\n'))).toBe(
      "book.txt: line 3: holds a NUL character (U+0000) at column 4, which cannot be stored. Fix: remove NUL bytes, e.g. `tr -d '\\000' < in > out`",
    );
    const jsonl = '{"id":"a","text":"fine"}\n{"id":"b","text":"bad\\u0000"}\n';
    expect(messageOf(() => parseDatasetText('jsonl', 'docs.jsonl', jsonl))).toBe(
      'docs.jsonl: line 2, field text: holds a NUL character (U+0000), which cannot be stored. Fix: remove the \\u0000 escapes from the file',
    );
    const key = '{"id":"a","text":"t","metadata":{"k\\u0000":1}}\n';
    expect(messageOf(() => parseDatasetText('jsonl', 'docs.jsonl', key))).toMatch(
      /^docs\.jsonl: line 1, field metadata\["k\\u0000"\]: holds a NUL/,
    );
  });

  it('refuses JSON nested deeper than the limit, 50,000 levels included, naming line and column', () => {
    const line = `{"id":"a","text":"t","metadata":{"x":${deep(50_000)}}}`;
    expect(messageOf(() => parseDatasetText('jsonl', 'docs.jsonl', `{"id":"z","text":"t"}\n${line}\n`))).toBe(
      'docs.jsonl: line 2: JSON nested more than 64 levels deep (column 100). Fix: flatten the structure; datasets and their metadata need only a few levels',
    );
    // Brackets inside strings do not count.
    const quoted = `{"id":"a","text":"${'['.repeat(100)}"}\n`;
    expect(parseDatasetText('jsonl', 'docs.jsonl', quoted).documents).toHaveLength(1);
  });

  it('refuses a paragraph over the limit at the line it starts on', () => {
    const huge = 'word '.repeat(IMPORT_LIMITS.paragraphChars / 5 + 1).trim();
    expect(messageOf(() => parseDatasetText('text', 'book.md', `# Title\n\nShort.\n\n${huge}\n`))).toBe(
      'book.md: line 5: a paragraph of 1,000,004 characters without a blank line; at most 1,000,000 are accepted. Fix: separate paragraphs with blank lines',
    );
    const jsonl = `{"id":"a","text":"${huge}"}\n`;
    expect(messageOf(() => parseDatasetText('jsonl', 'docs.jsonl', jsonl))).toMatch(
      /^docs\.jsonl: line 1, field text: a paragraph of 1,000,004 characters/,
    );
  });

  it('refuses long ids and cuts long titles', () => {
    const id = 'i'.repeat(201);
    expect(messageOf(() => parseDatasetText('jsonl', 'docs.jsonl', `{"id":"${id}","text":"t"}\n`))).toBe(
      'docs.jsonl: line 1, field id: is 201 characters long; ids may have at most 200. Fix: use a shorter id',
    );
    const title = 't'.repeat(5000);
    const doc = parseDatasetText(
      'jsonl',
      'docs.jsonl',
      `{"id":"a","text":"x","metadata":{"title":"${title}"}}\n`,
    );
    expect(doc.documents[0]!.title).toHaveLength(1000);
    expect(doc.documents[0]!.title!.endsWith('…')).toBe(true);
  });
});
