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

const docs = (ids: (number | string)[]) =>
  `${ids.map((id) => JSON.stringify({ id, content: `Document ${id} text.` })).join('\n')}\n`;
const query = {
  id: 'Q_0',
  title: 'Cats or dogs?',
  t1: 'Cats are better.',
  t2: 'Dogs are better.',
  response1: ['Cats are clean.', 'Cats are quiet.'],
  response2: ['Dogs are loyal.'],
  favor_ids: [1, 2],
  against_ids: [3],
};
const persphere = (q: object, ids = [1, 2, 3]) =>
  parseDatasetText('persphere', 'q.jsonl', `${JSON.stringify(q)}\n`, undefined, {
    file: 'd.jsonl',
    text: docs(ids),
  });

describe('persphere importer', () => {
  it('reads queries with their claims, perspectives and evidence, and the corpus', () => {
    const parsed = persphere(query);
    expect(parsed.counts).toEqual({ queries: 1, claims: 2, perspectives: 3, documents: 3 });
    expect(parsed.corpus).toEqual([
      { externalId: '1', title: null, text: 'Document 1 text.' },
      { externalId: '2', title: null, text: 'Document 2 text.' },
      { externalId: '3', title: null, text: 'Document 3 text.' },
    ]);
    expect(parsed.documents[0]).toMatchObject({
      externalId: 'Q_0',
      text: 'Cats or dogs?',
      data: {
        claims: [
          {
            statement: 'Cats are better.',
            perspectives: [
              { text: 'Cats are clean.', evidence: ['1'] },
              { text: 'Cats are quiet.', evidence: ['2'] },
            ],
          },
          { statement: 'Dogs are better.', perspectives: [{ text: 'Dogs are loyal.', evidence: ['3'] }] },
        ],
      },
    });
  });

  it('names file, line and field of a bad record', () => {
    expect(messageOf(() => persphere({ ...query, favor_ids: [1] }))).toBe(
      'q.jsonl: line 1, field favor_ids: has 1 evidence id for the 2 perspectives of response1. Fix: give one evidence document id per perspective, in the order of response1',
    );
    expect(messageOf(() => persphere({ ...query, against_ids: [99] }))).toBe(
      'q.jsonl: line 1, field against_ids[0]: evidence id 99 is not a document of d.jsonl. Fix: name a document id of the documents file',
    );
    expect(messageOf(() => persphere(query, [1, 2, 2]))).toBe(
      'd.jsonl: line 3, field id: duplicate document id "2" (first used on line 2). Fix: give every document a unique id',
    );
    const twice = `${JSON.stringify(query)}\n${JSON.stringify(query)}\n`;
    expect(
      messageOf(() =>
        parseDatasetText('persphere', 'q.jsonl', twice, undefined, {
          file: 'd.jsonl',
          text: docs([1, 2, 3]),
        }),
      ),
    ).toBe(
      'q.jsonl: line 2, field id: duplicate query id "Q_0" (first used on line 1). Fix: give every query a unique id',
    );
    expect(messageOf(() => persphere({ ...query, stance: 1 }))).toBe(
      'q.jsonl: line 1, field stance: unknown field. Fix: allowed fields are id, title, t1, t2, response1, response2, favor_ids, against_ids',
    );
  });

  it('needs the documents file, and only two-file kinds take one', () => {
    expect(messageOf(() => parseDatasetText('persphere', 'q.jsonl', `${JSON.stringify(query)}\n`))).toBe(
      'q.jsonl: a persphere dataset is two files and the documents file is missing. Fix: name it with --documents <documents.jsonl> (the queries file comes first)',
    );
    expect(
      messageOf(() =>
        parseDatasetText('jsonl', 'a.jsonl', '{"id":"a","text":"t"}\n', undefined, {
          file: 'd.jsonl',
          text: '',
        }),
      ),
    ).toBe(
      'd.jsonl: --documents is only for persphere and retrieval datasets, not jsonl. Fix: drop --documents, or import the files as a persphere or retrieval dataset',
    );
  });
});

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

describe('QMSum importer', () => {
  const meeting = {
    topic_list: [],
    general_query_list: [{ query: 'Summarize the whole meeting.', answer: 'They met.' }],
    specific_query_list: [],
    meeting_transcripts: [
      { speaker: 'Ann', content: 'Hello.' },
      { speaker: 'Bo', content: 'Hi.' },
    ],
  };
  it('makes a meeting a document of speaker turns with its general answers as references', () => {
    const parsed = parseDatasetText('qmsum', 'm.jsonl', `${JSON.stringify(meeting)}\n`);
    expect(parsed.counts).toEqual({ documents: 1, utterances: 2, references: 1 });
    expect(parsed.documents[0]).toMatchObject({
      externalId: 'meeting-1',
      text: 'Ann: Hello.\n\nBo: Hi.',
      data: { references: ['They met.'] },
    });
    expect(parsed.documents[0]!.chunks[1]).toEqual({
      kind: 'utterance',
      text: 'Hi.',
      sourceIndex: 1,
      metadata: { speaker: 'Bo' },
    });
  });
  it('names line and field of a meeting without a reference', () => {
    const bad = { ...meeting, general_query_list: [] };
    expect(
      messageOf(() =>
        parseDatasetText('qmsum', 'm.jsonl', `${JSON.stringify(meeting)}\n${JSON.stringify(bad)}\n`),
      ),
    ).toBe(
      'm.jsonl: line 2, field general_query_list: is empty. Fix: a meeting needs a general query whose answer is its reference summary',
    );
  });
});
