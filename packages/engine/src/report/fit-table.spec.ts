import { describe, expect, it } from '@jest/globals';
import { fitTable } from './fit-table.js';
import { failedColumn, type ReportColumn, rankColumn, reportTable } from './report-blocks.js';
import { renderText } from './report-render.js';

const table = {
  headers: ['rank', 'system', 'score', 'a very long column header that is cut', 'status'],
  rows: [
    ['1', 'gor', '13.17', 'x'.repeat(50), 'complete'],
    ['2', 'bm25-with-a-long-name', '13.32', 'short', 'incomplete: 1 of 5 summaries failed'],
  ],
  csvHeaders: [],
  csvRows: [],
};

describe('fitTable', () => {
  it('keeps every column within the width, cutting cells past 36 characters', () => {
    const { table: t, hidden } = fitTable(table, 200);
    expect(hidden).toEqual([]);
    expect(t.headers[3]).toBe('a very long column header that is c…');
    expect(t.rows[0]![3]).toBe(`${'x'.repeat(35)}…`);
    expect(t.rows[1]![4]).toBe('incomplete: 1 of 5 summaries failed');
  });

  it('leaves out columns that do not fit, keeping narrower ones after them and the first two', () => {
    // rank 4 + system 21 + score 5 = 30 plus gaps 4: the 36-wide column does not fit in 60, status (35) does not
    // either, so only the first three stay.
    expect(fitTable(table, 60).hidden).toEqual(['a very long column header that is cut', 'status']);
    // At 80 the long column fits (34 + 2 + 36 = 72) and status does not.
    expect(fitTable(table, 80).hidden).toEqual(['status']);
    // The first two columns stay however narrow the terminal.
    expect(fitTable(table, 10).table.headers).toEqual(['rank', 'system']);
  });

  it('says in the text report which columns it left out, and --wide shows them all', () => {
    const blocks = [{ key: 'k', heading: 'Board', table }];
    const narrow = renderText('Run', blocks, { width: 80 });
    expect(narrow).toContain('Not shown to fit 80 columns: status (--wide shows every column).');
    expect(narrow.split('\n').every((l) => l.length <= 80)).toBe(true);
    const wide = renderText('Run', blocks, { wide: true, width: 80 });
    expect(wide).toContain('x'.repeat(50));
    expect(wide).not.toContain('Not shown');
  });
});

describe('pinned columns', () => {
  const row = (system: string, failed: number) => ({
    system,
    score: 1,
    rank: 1,
    rankLabel: '=1',
    work: { summaries: { expected: 5, failed }, judgments: { expected: 5, failed: 0 } },
  });
  type Row = ReturnType<typeof row>;
  const columns: ReportColumn<Row>[] = [
    rankColumn(),
    { header: 'system', show: (r) => r.system },
    { header: 'a wide column', show: () => 'x'.repeat(30) },
    failedColumn(),
  ];

  it('keeps the failed column in a narrow terminal when some work failed, in its place', () => {
    const { table, hidden } = fitTable(reportTable(columns, [row('a', 0), row('b', 2)]), 15);
    expect(table.headers).toEqual(['rank', 'system', 'failed']);
    expect(table.rows).toEqual([
      ['=1', 'a', '0'],
      ['=1', 'b', '2 summaries'],
    ]);
    expect(hidden).toEqual(['a wide column']);
  });

  it('lets the failed column go like any other when nothing failed', () => {
    expect(fitTable(reportTable(columns, [row('a', 0)]), 15).hidden).toEqual(['a wide column', 'failed']);
  });

  it('always keeps a pinned column (a leaderboard ranking column), however narrow', () => {
    const pinned = columns.map((c) => (c.header === 'a wide column' ? { ...c, pin: true } : c));
    const { table, hidden } = fitTable(reportTable(pinned, [row('a', 0)]), 15);
    expect([table.headers, hidden]).toEqual([['rank', 'system', 'a wide column'], ['failed']]);
  });
});
