import { describe, expect, it } from '@jest/globals';
import { splitSentenceSpans, splitSentences } from './sentences.js';

function expectSpansConsistent(text: string): void {
  const spans = splitSentenceSpans(text);
  let last = 0;
  for (const s of spans) {
    expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(s.start).toBeGreaterThanOrEqual(last);
    expect(text.slice(last, s.start).trim()).toBe('');
    last = s.end;
  }
  expect(text.slice(last).trim()).toBe('');
}

describe('splitSentences', () => {
  it.each<[string, string[]]>([
    ['One. Two! Three? Four', ['One.', 'Two!', 'Three?', 'Four']],
    [
      'Mr. Bennet replied that he had not. Mrs. Long said so.',
      ['Mr. Bennet replied that he had not.', 'Mrs. Long said so.'],
    ],
    [
      'Dr. Watson and St. John met Prof. Moriarty. Then they left.',
      ['Dr. Watson and St. John met Prof. Moriarty.', 'Then they left.'],
    ],
    [
      'Fruit, e.g. Apples, are good. Colours, i.e. Red, are bright.',
      ['Fruit, e.g. Apples, are good.', 'Colours, i.e. Red, are bright.'],
    ],
    ['We bought pens, paper, etc. Then we went home.', ['We bought pens, paper, etc.', 'Then we went home.']],
    ['Pens, paper, etc. and more.', ['Pens, paper, etc. and more.']],
    ['He moved to the U.S. Army base. It was hot.', ['He moved to the U.S. Army base.', 'It was hot.']],
    ['He moved to the U.S. The army followed.', ['He moved to the U.S.', 'The army followed.']],
    [
      'The book by J. K. Rowling sold well. It was long.',
      ['The book by J. K. Rowling sold well.', 'It was long.'],
    ],
    [
      'It was written by J.R.R. Tolkien in 1954. Many read it.',
      ['It was written by J.R.R. Tolkien in 1954.', 'Many read it.'],
    ],
    [
      'The price rose 3.5 percent. It cost $4.99. Buy now.',
      ['The price rose 3.5 percent.', 'It cost $4.99.', 'Buy now.'],
    ],
    ['See No. 5 and p. 12 for details. Done.', ['See No. 5 and p. 12 for details.', 'Done.']],
    ['I said no. Then he left.', ['I said no.', 'Then he left.']],
    ['"Go!" she said. He went.', ['"Go!" she said.', 'He went.']],
    ['"What is his name?" asked she. "Bingley."', ['"What is his name?" asked she.', '"Bingley."']],
    ['He left." Then she cried.', ['He left."', 'Then she cried.']],
    ['He said, "I am done." She nodded.', ['He said, "I am done."', 'She nodded.']],
    ['“Really?” he asked. “Yes.” She smiled.', ['“Really?” he asked.', '“Yes.”', 'She smiled.']],
    ["'Tis done.' Then silence.", ["'Tis done.'", 'Then silence.']],
    ['(It was late.) They slept.', ['(It was late.)', 'They slept.']],
    ['I thought... maybe not. Fine.', ['I thought... maybe not.', 'Fine.']],
    ['He waited... The door opened.', ['He waited...', 'The door opened.']],
    ['He waited… the door opened… Nobody came.', ['He waited… the door opened…', 'Nobody came.']],
    ['It ended . . . Then nothing.', ['It ended . . .', 'Then nothing.']],
    ['And so it goes...', ['And so it goes...']],
    ['What?! No way!! Really?', ['What?!', 'No way!!', 'Really?']],
    ['1. First item here. 2. Second one.', ['1. First item here.', '2. Second one.']],
    ['The end.Next is glued.', ['The end.Next is glued.']],
    ['Smith et al. showed this. We agree.', ['Smith et al. showed this.', 'We agree.']],
    ['Martin Luther King Jr. He spoke.', ['Martin Luther King Jr.', 'He spoke.']],
    ['It was Plan B. The team agreed.', ['It was Plan B.', 'The team agreed.']],
    ['Roe v. Wade was decided. It mattered.', ['Roe v. Wade was decided.', 'It mattered.']],
    ['We met at 5 p.m. on Jan. 3 in Washington.', ['We met at 5 p.m. on Jan. 3 in Washington.']],
    ['_Very_ well. _She_ left.', ['_Very_ well.', '_She_ left.']],
    ['', []],
    ['   \n\n  ', []],
    ['No terminal punctuation', ['No terminal punctuation']],
    ['He got an A. Then he left.', ['He got an A.', 'Then he left.']],
    ['King George III. The king was mad.', ['King George III.', 'The king was mad.']],
    ['He arrived at 5 p.m. Then he ate.', ['He arrived at 5 p.m.', 'Then he ate.']],
    ['He said "Stop." and left.', ['He said "Stop." and left.']],
    ['"Well..." He paused.', ['"Well..."', 'He paused.']],
    ['Born in 1990. 2000 was better.', ['Born in 1990.', '2000 was better.']],
    ['Hello! how are you?', ['Hello! how are you?']],
    ['She was ill--very ill. Jane stayed.', ['She was ill--very ill.', 'Jane stayed.']],
  ])('%j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
    expectSpansConsistent(text);
  });

  it('treats single line breaks as hard wraps and blank lines as paragraph breaks', () => {
    const text =
      'Chapter 1\n\n\nIt is a truth universally acknowledged, that a single man in possession\n' +
      'of a good fortune, must be in want of a wife.\n\nHowever little known the feelings of\n' +
      'Mr.\nBennet may be, this is so.  And\r\nthat is all\n \nA heading without a stop\nNext paragraph.';
    expect(splitSentences(text)).toEqual([
      'Chapter 1',
      'It is a truth universally acknowledged, that a single man in possession\nof a good fortune, must be in want of a wife.',
      'However little known the feelings of\nMr.\nBennet may be, this is so.',
      'And\r\nthat is all',
      'A heading without a stop\nNext paragraph.',
    ]);
    expectSpansConsistent(text);
  });

  it('starts a new unit at list items and Markdown headings', () => {
    const text =
      '## Plot\n- Elizabeth meets Darcy\n- Jane falls ill\n  and stays at Netherfield\n1. First\n2) Second';
    expect(splitSentences(text)).toEqual([
      '## Plot',
      '- Elizabeth meets Darcy',
      '- Jane falls ill\n  and stays at Netherfield',
      '1. First',
      '2) Second',
    ]);
    expectSpansConsistent(text);
    // A dash inside a wrapped sentence is not a list item.
    expect(splitSentences('She was ill\n--very ill. He\n- left')).toEqual([
      'She was ill\n--very ill.',
      'He',
      '- left',
    ]);
  });

  it('keeps dialogue tags with the quoted exclamation or question', () => {
    const text =
      '"Do you not want to know who has taken it?" cried his wife impatiently.\n\n"Oh! Single, my dear!"';
    expect(splitSentences(text)).toEqual([
      '"Do you not want to know who has taken it?" cried his wife impatiently.',
      '"Oh!',
      'Single, my dear!"',
    ]);
  });

  it('returns offsets into the original text, including after non-BMP characters', () => {
    const text = '🙂 Hi there.  😀 Bye now!';
    const spans = splitSentenceSpans(text);
    expect(spans).toEqual([
      { text: '🙂 Hi there.', start: 0, end: 12 },
      { text: '😀 Bye now!', start: 14, end: 25 },
    ]);
    expectSpansConsistent(text);
  });
});
