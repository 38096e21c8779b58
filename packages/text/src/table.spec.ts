import { describe, expect, it } from '@jest/globals';
import { formatTextTable } from './table.js';

describe('formatTextTable', () => {
  it('pads columns to their widest cell and trims line ends by default', () => {
    expect(formatTextTable(['A', 'LONG'], [['xyz', '1']])).toBe('A    LONG\nxyz  1');
  });

  it('underlines the header and keeps the padding when asked', () => {
    expect(formatTextTable(['A', 'B'], [['xy', '1']], { ruler: true, trimEnd: false })).toBe(
      'A   B\n--  -\nxy  1',
    );
  });
});
