import { describe, expect, it } from '@jest/globals';
import {
  firstSentence,
  leadPerspectiveSummary,
  lexicallyEntails,
  lexicalRating,
  lexicalReference,
  lexicalStance,
  mergePerspectiveSummaries,
} from './perspectives.js';

const docs = [
  { id: '1', text: 'Remote work saves commuting time. It also cuts costs.' },
  { id: '2', text: 'Offices should not be abandoned because teams lose contact. More text.' },
  { id: '3', text: 'Flexible hours raise output.' },
];

describe('offline PerSphere roles', () => {
  it('splits first sentences into two sides by opposition cues', () => {
    expect(leadPerspectiveSummary('Should we work remotely?', docs)).toEqual({
      claims: [
        {
          statement: 'We support the argument that Should we work remotely.',
          perspectives: [
            { text: 'Remote work saves commuting time.', refs: ['1'] },
            { text: 'Flexible hours raise output.', refs: ['3'] },
          ],
        },
        {
          statement: 'We undermine the argument that Should we work remotely.',
          perspectives: [
            { text: 'Offices should not be abandoned because teams lose contact.', refs: ['2'] },
          ],
        },
      ],
    });
    // Never an empty side: one document gives its second sentence to the other claim.
    const one = leadPerspectiveSummary('q', [docs[0]!]);
    expect(one.claims.map((c) => c.perspectives.map((p) => p.text))).toEqual([
      ['Remote work saves commuting time.'],
      ['It also cuts costs.'],
    ]);
  });

  it('merges local summaries, joining the references of equal perspectives', () => {
    const a = leadPerspectiveSummary('q', docs.slice(0, 2));
    const b = leadPerspectiveSummary('q', [{ id: '9', text: docs[0]!.text }, docs[2]!]);
    const merged = mergePerspectiveSummaries([a, b]);
    expect(merged.claims.map((c) => c.perspectives)).toEqual([
      [{ text: 'Remote work saves commuting time.', refs: ['1', '9'] }],
      [
        { text: 'Offices should not be abandoned because teams lose contact.', refs: ['2'] },
        { text: 'Flexible hours raise output.', refs: ['3'] },
      ],
    ]);
  });

  it('judges by content-term overlap', () => {
    expect(firstSentence(`${'word '.repeat(50)}end.`).split(' ')).toHaveLength(40);
    expect(lexicallyEntails('Remote work saves time commuting', 'Remote work saves commuting time.')).toBe(
      true,
    );
    expect(lexicallyEntails('Cats sleep', 'Remote work saves commuting time.')).toBe(false);
    expect(
      lexicalStance('Offices keep teams together', 'Remote work is better', 'Offices keep teams better'),
    ).toBe(2);
    expect(lexicalReference('Remote work saves commuting time', docs[0]!.text)).toBe(true);
    const gold = leadPerspectiveSummary('q', docs);
    expect(lexicalRating(gold, gold)).toBe(10);
    expect(
      lexicalRating(
        {
          claims: [
            { statement: 's', perspectives: [] },
            { statement: 't', perspectives: [] },
          ],
        },
        gold,
      ),
    ).toBe(1);
  });
});
