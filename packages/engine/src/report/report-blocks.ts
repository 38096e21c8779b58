import { failedCell, isComplete, type RowWork } from '../scoring/row-status.js';

// What a benchmark family's report section contributes: blocks of tables, notes, lists and bar
// charts. The engine renders them in every format (report-render.ts); families never format.

export type CsvValue = number | string | null;

export interface ReportColumn<R> {
  header: string;
  // What the terminal, Markdown and HTML show.
  show(row: R): string;
  // The column's CSV cells with numbers unformatted, e.g. a CI as low and high (default: one
  // cell holding what is shown).
  csv?: readonly { header: string; value(row: R): CsvValue }[];
  // A narrow terminal keeps the column when this holds for some row (failed work stays visible).
  pinWhen?(row: R): boolean;
  // A narrow terminal always keeps it (a leaderboard's ranking column).
  pin?: boolean;
}

export interface ReportTable {
  headers: string[];
  rows: string[][];
  csvHeaders: string[];
  csvRows: CsvValue[][];
  // Columns a narrow terminal keeps besides the first two (indices into headers).
  pinned?: number[];
}

export interface ReportChart {
  title: string;
  // share in [0, 1] draws a bar; null shows only the label and what is displayed (e.g. why).
  bars: { label: string; share: number | null; display: string }[];
}

export interface ReportBlock {
  // Names the block's table in CSV (its first column); a leaderboard's key is its JSON section's.
  key: string;
  heading?: string;
  // An internal id shown small beside the heading (a leaderboard's metric, <metric>.<index>).
  label?: string;
  table?: ReportTable;
  // Drawn in HTML only.
  chart?: ReportChart;
  notes?: string[];
  list?: string[];
}

export function reportTable<R>(columns: readonly ReportColumn<R>[], rows: readonly R[]): ReportTable {
  const csvColumns = columns.flatMap((c) => c.csv ?? [{ header: c.header, value: c.show }]);
  return {
    headers: columns.map((c) => c.header),
    rows: rows.map((r) => columns.map((c) => c.show(r))),
    csvHeaders: csvColumns.map((c) => c.header),
    csvRows: rows.map((r) => csvColumns.map((c) => c.value(r))),
    pinned: columns.flatMap((c, i) => (c.pin || (c.pinWhen && rows.some((r) => c.pinWhen!(r))) ? [i] : [])),
  };
}

// A number shown with `digits` decimals, 'n/a' when absent.
export const fixed = (x: number | null | undefined, digits: number): string =>
  x === null || x === undefined ? 'n/a' : x.toFixed(digits);

// A number column: `digits` decimals on screen ('n/a' when absent), the unrounded value in CSV.
export const numberColumn = <R>(
  header: string,
  digits: number,
  value: (r: R) => number | null | undefined,
): ReportColumn<R> => ({
  header,
  show: (r) => fixed(value(r), digits),
  csv: [{ header, value: (r) => value(r) ?? null }],
});

// A rank cell as the leaderboard shows it ('=2' for a shared rank, '–' for a row left out); CSV
// has the number and what is shown.
export const rankColumn = <R extends { rank: number | null; rankLabel: string }>(): ReportColumn<R> => ({
  header: 'rank',
  show: (r) => r.rankLabel,
  csv: [
    { header: 'rank', value: (r) => r.rank },
    { header: 'rank shown', value: (r) => r.rankLabel },
  ],
});

// The `failed` cell ('3 summaries, 12 judgments' or '0'); in CSV one count per kind of work.
export const failedColumn = <R extends { work: RowWork }>(): ReportColumn<R> => ({
  header: 'failed',
  show: (r) => failedCell(r.work),
  csv: [
    { header: 'failed summaries', value: (r) => r.work.summaries.failed },
    { header: 'failed judgments', value: (r) => r.work.judgments.failed },
  ],
  pinWhen: (r) => !isComplete(r.work),
});

// A 95% interval the row keeps at ci95[key], shown 'low–high' ('n/a' when absent); CSV holds
// the two ends as numbers.
export const ciColumn = <R extends { ci95: Record<string, [number, number]> }>(
  header: string,
  key: string,
  digits = 1,
): ReportColumn<R> => ({
  header,
  show: (r) => (r.ci95[key] ? `${fixed(r.ci95[key][0], digits)}–${fixed(r.ci95[key][1], digits)}` : 'n/a'),
  csv: [
    { header: `${header} low`, value: (r) => r.ci95[key]?.[0] ?? null },
    { header: `${header} high`, value: (r) => r.ci95[key]?.[1] ?? null },
  ],
});
