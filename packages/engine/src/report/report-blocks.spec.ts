import { describe, expect, it } from '@jest/globals';
import { numberColumn, reportTable } from './report-blocks.js';

describe('numberColumn', () => {
  it('rounds on screen, keeps the exact value in CSV, and shows n/a for a missing number', () => {
    const rows = [{ f1: 66.666666 }, { f1: null }, {}] as { f1?: number | null }[];
    const table = reportTable([numberColumn<{ f1?: number | null }>('F1', 1, (r) => r.f1)], rows);
    expect(table.headers).toEqual(['F1']);
    expect(table.rows).toEqual([['66.7'], ['n/a'], ['n/a']]);
    expect(table.csvHeaders).toEqual(['F1']);
    expect(table.csvRows).toEqual([[66.666666], [null], [null]]);
  });
});
