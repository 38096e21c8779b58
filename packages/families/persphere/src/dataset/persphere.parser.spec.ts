import { describe, expect, it } from '@jest/globals';
import { GENERIC_DATASET_KINDS, parseDatasetText } from '@precis/ingest';
import { persphereDatasetKind } from './persphere-kind.js';

// The persphere kind beside the generic ones, as the built-in registry orders them.
const KINDS = new Map([persphereDatasetKind, ...GENERIC_DATASET_KINDS].map((k) => [k.name, k]));

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
  parseDatasetText(
    'persphere',
    'q.jsonl',
    `${JSON.stringify(q)}\n`,
    undefined,
    {
      file: 'd.jsonl',
      text: docs(ids),
    },
    KINDS,
  );

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
        parseDatasetText(
          'persphere',
          'q.jsonl',
          twice,
          undefined,
          { file: 'd.jsonl', text: docs([1, 2, 3]) },
          KINDS,
        ),
      ),
    ).toBe(
      'q.jsonl: line 2, field id: duplicate query id "Q_0" (first used on line 1). Fix: give every query a unique id',
    );
    expect(messageOf(() => persphere({ ...query, stance: 1 }))).toBe(
      'q.jsonl: line 1, field stance: unknown field. Fix: allowed fields are id, title, t1, t2, response1, response2, favor_ids, against_ids',
    );
  });

  it('needs the documents file, and only two-file kinds take one', () => {
    expect(
      messageOf(() =>
        parseDatasetText('persphere', 'q.jsonl', `${JSON.stringify(query)}\n`, undefined, undefined, KINDS),
      ),
    ).toBe(
      'q.jsonl: a persphere dataset is two files and the documents file is missing. Fix: name it with --documents <documents.jsonl> (the queries file comes first)',
    );
    expect(
      messageOf(() =>
        parseDatasetText(
          'jsonl',
          'a.jsonl',
          '{"id":"a","text":"t"}\n',
          undefined,
          { file: 'd.jsonl', text: '' },
          KINDS,
        ),
      ),
    ).toBe(
      'd.jsonl: --documents is only for persphere and retrieval datasets, not jsonl. Fix: drop --documents, or import the files as a persphere or retrieval dataset',
    );
  });
});
