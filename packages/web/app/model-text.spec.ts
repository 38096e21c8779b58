import { describe, expect, it } from '@jest/globals';
import { textRuns } from './model-text';

describe('Markdown bold in model text', () => {
  it('splits a KGDS opinion into its plain and bold parts', () => {
    expect(textRuns('the **Philadelphia 76ers** gave away 8 points to the **New York Knicks**.')).toEqual([
      { text: 'the ', bold: false },
      { text: 'Philadelphia 76ers', bold: true },
      { text: ' gave away 8 points to the ', bold: false },
      { text: 'New York Knicks', bold: true },
      { text: '.', bold: false },
    ]);
  });

  it('leaves text without a pair of ** as it is', () => {
    expect(textRuns('2 ** 3 = 8, and a lone ** stays')).toEqual([
      { text: '2 ** 3 = 8, and a lone ** stays', bold: false },
    ]);
    expect(textRuns('')).toEqual([{ text: '', bold: false }]);
  });

  it('keeps markup inside bold as text', () => {
    expect(textRuns('**<img src=x>**')).toEqual([{ text: '<img src=x>', bold: true }]);
  });
});
