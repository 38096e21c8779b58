import { describe, expect, it } from '@jest/globals';
import { cellNumber, sortedIndices } from './sort';

describe('table sorting', () => {
  it('reads dollars, CIs and percents as numbers', () => {
    expect(['$0.0123', '81.0–85.1', '42%', '-3.5', 'n/a', 'abc'].map(cellNumber)).toEqual([
      0.0123,
      81,
      42,
      -3.5,
      null,
      null,
    ]);
  });

  it('sorts ranks numerically, a shared rank (=2) beside its number, unranked rows last', () => {
    const rows = [['=2'], ['–'], ['1'], ['10'], ['=2']];
    expect(sortedIndices(rows, 0, 'asc')).toEqual([2, 0, 4, 3, 1]);
  });

  it('sorts numerically when every present cell is a number, missing cells last both ways', () => {
    const rows = [['10'], ['n/a'], ['9.5'], ['–'], ['100']];
    expect(sortedIndices(rows, 0, 'asc')).toEqual([2, 0, 4, 1, 3]);
    expect(sortedIndices(rows, 0, 'desc')).toEqual([4, 0, 2, 1, 3]);
  });

  it('compares text naturally when a column is not all numbers, keeping ties in order', () => {
    const rows = [['10 summaries'], ['3 summaries'], ['complete'], ['3 summaries']];
    expect(sortedIndices(rows, 0, 'asc')).toEqual([1, 3, 0, 2]);
  });
});
