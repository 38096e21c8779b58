import { describe, expect, it } from '@jest/globals';
import { annotateDuplication, HeuristicDuplicationAnnotator } from './duplication.js';

const clean = { confusing: false, types: [], questions: [] };

describe('annotateDuplication', () => {
  it('flags a later verbatim repeat, not the first occurrence', () => {
    const s = [
      'Elizabeth Bennet meets the proud Mr. Darcy at a country ball.',
      'Jane falls ill while visiting Netherfield.',
      'Elizabeth Bennet meets the proud Mr. Darcy at a country ball.',
    ];
    const v = annotateDuplication(s);
    expect(v[0]).toEqual(clean);
    expect(v[1]).toEqual(clean);
    expect(v[2]).toEqual({
      confusing: true,
      types: ['duplication'],
      questions: [
        'Why does this sentence repeat sentence 1 ("Elizabeth Bennet meets the proud Mr. Darcy at a country ball.")?',
      ],
      duplicateOf: 1,
    });
  });

  it('flags a restatement by content-word overlap', () => {
    // Content words {darcy, propose, elizabeth, hunsford, reject} vs {hunsford, elizabeth, angrily,
    // reject, proposal, darcy}: 4 shared -> containment 4/6 < 0.9, Jaccard 4/7 < 0.7.
    const near = [
      'Darcy proposes to Elizabeth at Hunsford, and she rejects him.',
      'At Hunsford, Elizabeth angrily rejects the proposal from Darcy.',
    ];
    expect(annotateDuplication(near)[1]).toEqual(clean);
    // All five content words reappear (containment 1): a restatement.
    const restated = [
      'Darcy proposes to Elizabeth at Hunsford, and she rejects him.',
      'At Hunsford, she rejects him when Darcy proposes to Elizabeth.',
    ];
    expect(annotateDuplication(restated)[1]).toMatchObject({
      confusing: true,
      types: ['duplication'],
      duplicateOf: 1,
    });
  });

  it('flags a long copied span even inside otherwise different sentences', () => {
    const s = [
      'After the ball, Mrs. Bennet talks of nothing but the wealthy young man from the north.',
      'Lydia elopes with Wickham.',
      'Her sister laughs at the wealthy young man from the north who rented Netherfield.',
    ];
    // Shared 8-word run: "the wealthy young man from the north" is only 7 words, so widen the window.
    expect(annotateDuplication(s)[2]).toEqual(clean);
    const v = annotateDuplication(s, { spanWords: 6 });
    expect(v[2]).toEqual({
      confusing: true,
      types: ['duplication'],
      questions: ['Why is "the wealthy young man from the ..." repeated from sentence 1?'],
      duplicateOf: 1,
    });
  });

  it('does not flag sentences that merely share names', () => {
    const s = [
      'Elizabeth visits Darcy at Pemberley with her aunt and uncle.',
      'Darcy and Elizabeth later walk together at Pemberley after the wedding plans.',
      'Short line.',
      'Short line.',
    ];
    // Sentences under five content words are only checked for long spans.
    expect(annotateDuplication(s)).toEqual([clean, clean, clean, clean]);
    expect(annotateDuplication([])).toEqual([]);
  });

  it('annotates a whole summary through the annotator class', async () => {
    const a = new HeuristicDuplicationAnnotator();
    const summary =
      'Jane and Bingley fall in love at Netherfield. Darcy separates them in London. Jane and Bingley fall in love at Netherfield.';
    const r = await a.annotate({ summary });
    expect(r.engine).toBe('heuristic-duplication@1');
    expect(r.verdicts.map((v) => v.confusing)).toEqual([false, false, true]);
    const given = await a.annotate({ summary, sentences: ['One two three.', 'One two three.'] });
    expect(given.verdicts).toHaveLength(2);
  });
});
