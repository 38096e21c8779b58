import { describe, expect, it } from '@jest/globals';
import { DatasetValidationError, parseDatasetText } from '@precis/ingest';
import { kgdsDatasetKind } from './kgds-kind.js';

const KIND = kgdsDatasetKind.name;
const KINDS = new Map([[KIND, kgdsDatasetKind]]);
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

describe('the kgds dataset kind', () => {
  it('keeps KGDS paragraph indices, utterances and typed facts', () => {
    const parsed = parse('k.json', JSON.stringify([kgdsSample]));
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
    const error = validationError(() => parse('k.json', JSON.stringify([kgdsSample, broken])));
    expect(error.record).toBe('[1]');
    expect(error.field).toBe('KGD[0].utterance');
    expect(error.message).toContain('k.json: [1].KGD[0].utterance: missing required field');
  });

  it('rejects a gold paragraph that is not in the article', () => {
    const broken = { ...kgdsSample, BSP: [{ paragraph_index: 9 }] };
    const error = validationError(() => parse('k.json', JSON.stringify([broken])));
    expect(error.message).toContain('[0].BSP[0].paragraph_index: paragraph 9 is not in SBK');
  });

  it('reports truncated JSON with its line', () => {
    const text = JSON.stringify([kgdsSample], null, 2);
    const error = validationError(() => parse('k.json', text.slice(0, 120)));
    expect(error.message).toMatch(/k\.json: line \d+, column \d+: invalid JSON: input ends unexpectedly/);
    expect(error.message).toContain('truncated');
  });

  it('refuses NUL characters and JSON nested deeper than the limit, naming where', () => {
    const kgds = '[{"a":1},{"KGD":[{"utterance":"x\\u0000"}]}]';
    expect(validationError(() => parse('KGDS.json', kgds)).message).toMatch(
      /^KGDS\.json: \[1\]\.KGD\[0\]\.utterance: holds a NUL character/,
    );
    const deep = `${'['.repeat(100)}1${']'.repeat(100)}`;
    expect(validationError(() => parse('KGDS.json', `\n\n  ${deep}`)).message).toMatch(
      /^KGDS\.json: line 3: JSON nested more than 64 levels deep \(column 67\)/,
    );
  });
});
