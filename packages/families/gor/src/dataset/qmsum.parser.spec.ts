import { describe, expect, it } from '@jest/globals';
import { parseDatasetText } from '@precis/ingest';
import { qmsumDatasetKind } from './qmsum-kind.js';

const KINDS = new Map([[qmsumDatasetKind.name, qmsumDatasetKind]]);
const parse = (file: string, text: string) =>
  parseDatasetText('qmsum', file, text, undefined, undefined, KINDS);

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

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
    const parsed = parse('m.jsonl', `${JSON.stringify(meeting)}\n`);
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
    expect(messageOf(() => parse('m.jsonl', `${JSON.stringify(meeting)}\n${JSON.stringify(bad)}\n`))).toBe(
      'm.jsonl: line 2, field general_query_list: is empty. Fix: a meeting needs a general query whose answer is its reference summary',
    );
  });
});
