import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { type SortDir, sortedIndices } from '../sort';

export interface SortableTableProps {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  testid: string;
  // Custom content of a cell (row is the index into rows); sorting still uses the string.
  renderCell?: (cell: string, row: number, col: number) => ComponentChildren;
  caption?: string;
}

interface SortState {
  col: number;
  dir: SortDir;
}

const ariaSort = (sort: SortState | null, col: number) =>
  sort?.col === col ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none';

// A table whose headers sort it: a click sorts by that column, a second click reverses it.
export function SortableTable({ headers, rows, testid, renderCell, caption }: SortableTableProps) {
  const [sort, setSort] = useState<SortState | null>(null);
  const order = useMemo(
    () => (sort ? sortedIndices(rows, sort.col, sort.dir) : rows.map((_, i) => i)),
    [rows, sort],
  );
  const toggle = (col: number) =>
    setSort((s) => (s?.col === col ? { col, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { col, dir: 'asc' }));

  return (
    <div class="table-wrap">
      <table data-testid={testid}>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {headers.map((h, col) => (
              <th key={col} scope="col" aria-sort={ariaSort(sort, col)} onClick={() => toggle(col)}>
                <button type="button" class="sort">
                  {h}
                  <span class="arrow" aria-hidden="true">
                    {sort?.col === col ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {order.map((i) => (
            <tr key={i}>
              {headers.map((_, col) => {
                const cell = rows[i]?.[col] ?? '';
                return <td key={col}>{renderCell ? renderCell(cell, i, col) : cell}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
