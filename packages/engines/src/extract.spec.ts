import { describe, expect, it } from '@jest/globals';
import { balanceQuotes, candidatePool, isProse, sentencesOf } from './extract.js';

describe('sentence preparation for extraction', () => {
  it.each<[string, string]>([
    ['"How good it was in you!', 'How good it was in you!'],
    ['Single, my dear, to be sure!"', 'Single, my dear, to be sure!'],
    ['He said, "Go to the house.', 'He said, "Go to the house."'],
    ['"Go," he said, "now."', '"Go," he said, "now."'],
    ['“Really?', 'Really?'],
    ['Yes, indeed.”', 'Yes, indeed.'],
    ['He cried, “Stop.', 'He cried, “Stop.”'],
    ["It's the Bennets' house.", "It's the Bennets' house."],
  ])('balances %j', (input, expected) => {
    expect(balanceQuotes(input)).toBe(expected);
  });

  it('collapses hard wraps, balances quotes and counts words', () => {
    expect(sentencesOf('"Oh! Single, my dear,\nto be sure!"\n\nChapter 2')).toEqual([
      { text: 'Oh!', words: 1 },
      { text: 'Single, my dear, to be sure!', words: 6 },
      { text: 'Chapter 2', words: 2 },
    ]);
  });

  it('prefers prose of the minimum length, falling back to shorter prose, then anything', () => {
    const s = sentencesOf('Chapter 2\n\nOh dear! It was a long and tiring day. Yes.');
    expect(s.map(isProse)).toEqual([false, true, true, false]);
    expect(candidatePool(s, 6).map((x) => x.text)).toEqual(['It was a long and tiring day.']);
    expect(candidatePool(s, 20).map((x) => x.text)).toEqual(['Oh dear!', 'It was a long and tiring day.']);
    expect(candidatePool(sentencesOf('Chapter 2'), 6).map((x) => x.text)).toEqual(['Chapter 2']);
  });
});
