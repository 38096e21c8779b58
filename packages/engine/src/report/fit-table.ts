import type { ReportTable } from './report-blocks.js';

// A terminal is 120 columns unless told otherwise (`--wide` shows every column at full width).
export const TERMINAL_WIDTH = 120;
// Longer cells are cut to this many characters (an ellipsis marks the cut) before fitting.
const MAX_CELL = 36;
const GAP = 2;

const cut = (s: string) => (s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s);

// The columns that fit the width, left to right (the first two, e.g. rank and system, and the
// table's pinned ones always stay; a column too wide is skipped and narrower ones after it may
// still fit), and the headers of those left out.
export function fitTable(
  table: ReportTable,
  width = TERMINAL_WIDTH,
): { table: ReportTable; hidden: string[] } {
  const rows = table.rows.map((r) => r.map(cut));
  const widths = table.headers.map((h, i) =>
    Math.max(cut(h).length, ...rows.map((r) => (r[i] ?? '').length)),
  );
  const always = new Set([0, 1, ...(table.pinned ?? [])].filter((i) => i < widths.length));
  let used = [...always].reduce((a, i) => a + widths[i]! + GAP, -GAP);
  const kept = new Set(always);
  widths.forEach((w, i) => {
    if (!kept.has(i) && used + GAP + w <= width) {
      kept.add(i);
      used += GAP + w;
    }
  });
  const order = [...kept].sort((a, b) => a - b);
  return {
    table: {
      ...table,
      headers: order.map((i) => cut(table.headers[i]!)),
      rows: rows.map((r) => order.map((i) => r[i] ?? '')),
      pinned: order.flatMap((i, k) => (always.has(i) && i > 1 ? [k] : [])),
    },
    hidden: table.headers.filter((_, i) => !kept.has(i)),
  };
}
