// Sorting of displayed table cells (strings), numeric when a column's cells read as numbers.

export type SortDir = 'asc' | 'desc';

// Cells that mean "no value": always sorted last, whatever the direction.
const MISSING = new Set(['', 'n/a', '–', '-']);

export const isMissing = (cell: string): boolean => MISSING.has(cell.trim());

// "$0.0123" -> 0.0123, "81.0–85.1" (a CI) -> 81.0, "42%" -> 42, "=2" -> 2; null when not a number.
export function cellNumber(cell: string): number | null {
  let s = cell.trim();
  // A money amount, or a rank several rows share ('=2').
  if (s.startsWith('$') || s.startsWith('=')) s = s.slice(1);
  const dash = s.indexOf('–');
  if (dash > 0) s = s.slice(0, dash);
  s = s.trim();
  if (s.endsWith('%')) s = s.slice(0, -1);
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

// The row order (indices into rows) sorted by one column; stable for equal cells.
export function sortedIndices(rows: readonly (readonly string[])[], col: number, dir: SortDir): number[] {
  const cells = rows.map((r) => r[col] ?? '');
  const present = cells.filter((c) => !isMissing(c));
  const numeric = present.length > 0 && present.every((c) => cellNumber(c) !== null);
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (a: string, b: string): number =>
    numeric ? (cellNumber(a) ?? 0) - (cellNumber(b) ?? 0) : collator.compare(a, b);
  return rows
    .map((_, i) => i)
    .sort((i, j) => {
      const a = cells[i] ?? '';
      const b = cells[j] ?? '';
      const ma = isMissing(a);
      const mb = isMissing(b);
      if (ma || mb) return ma === mb ? i - j : ma ? 1 : -1;
      return sign * compare(a, b) || i - j;
    });
}
