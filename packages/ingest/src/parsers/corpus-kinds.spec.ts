import { describe, expect, it } from '@jest/globals';
import { parseDatasetText } from '../parse-dataset-file.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('generic retrieval importer', () => {
  const corpus = {
    file: 'd.jsonl',
    text: '{"id":"a","text":"Alpha."}\n{"id":"b","text":"Beta.","title":"B"}\n',
  };
  it('reads queries with relevant ids, each counted once', () => {
    const parsed = parseDatasetText(
      'retrieval',
      'q.jsonl',
      '{"id":"q1","text":"alpha?","relevant":["a","a","b"]}\n',
      undefined,
      corpus,
    );
    expect(parsed.counts).toEqual({ queries: 1, relevant: 2, documents: 2 });
    expect(parsed.documents[0]!.data).toEqual({ relevant: ['a', 'b'], sourceLine: 1 });
    expect(parsed.corpus![1]).toEqual({ externalId: 'b', title: 'B', text: 'Beta.' });
  });
  it('refuses a relevant id that is not a document, and an empty list', () => {
    expect(
      messageOf(() =>
        parseDatasetText(
          'retrieval',
          'q.jsonl',
          '{"id":"q1","text":"x","relevant":["z"]}\n',
          undefined,
          corpus,
        ),
      ),
    ).toBe(
      'q.jsonl: line 1, field relevant[0]: id z is not a document of d.jsonl. Fix: name a document id of the documents file',
    );
    expect(
      messageOf(() =>
        parseDatasetText('retrieval', 'q.jsonl', '{"id":"q1","text":"x","relevant":[]}\n', undefined, corpus),
      ),
    ).toBe(
      'q.jsonl: line 1, field relevant: is empty. Fix: list the ids of the documents relevant to the query',
    );
  });
});

describe('the kind table', () => {
  it('reads only the kinds it is given, and names the two-file ones for --documents', () => {
    expect(messageOf(() => parseDatasetText('kgds', 'k.json', '[]'))).toBe(
      'k.json: no importer reads "kgds" datasets. Fix: import it as one of: text, jsonl, retrieval',
    );
    expect(messageOf(() => parseDatasetText('retrieval', 'q.jsonl', '{"id":"q"}\n'))).toBe(
      'q.jsonl: a retrieval dataset is two files and the documents file is missing. Fix: name it with --documents <documents.jsonl> (the queries file comes first)',
    );
    expect(
      messageOf(() => parseDatasetText('text', 'a.txt', 'Hi.\n', undefined, { file: 'd.jsonl', text: '' })),
    ).toBe(
      'd.jsonl: --documents is only for retrieval datasets, not text. Fix: drop --documents, or import the files as a retrieval dataset',
    );
  });
});
