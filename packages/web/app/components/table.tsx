import { type ComponentChildren, Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { type SortDir, sortedIndices } from '../sort';
import { ModelText } from './model-text';

export interface SortableTableProps {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  testid: string;
  // Custom content of a cell (row is the index into rows); sorting still uses the string. By
  // default a cell is text, its **bold** drawn bold (verdicts quote model and dataset text).
  renderCell?: (cell: string, row: number, col: number) => ComponentChildren;
  caption?: string;
}

interface SortState {
  col: number;
  dir: SortDir;
}

// A column whose cells are all this short (numbers, CIs, names) stays on one line; longer text wraps.
const SHORT = 24;

// A header wraps between its words only (not at the hyphen of ROUGE-L).
const headerWords = (h: string) =>
  h.split(' ').map((w, i) => (
    <Fragment key={i}>
      {i > 0 ? ' ' : null}
      <span class="word">{w}</span>
    </Fragment>
  ));

const ariaSort = (sort: SortState | null, col: number) =>
  sort?.col === col ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none';

// A table whose headers sort it: a click sorts by that column, a second click reverses it.
export function SortableTable({ headers, rows, testid, renderCell, caption }: SortableTableProps) {
  const [sort, setSort] = useState<SortState | null>(null);
  const order = useMemo(
    () => (sort ? sortedIndices(rows, sort.col, sort.dir) : rows.map((_, i) => i)),
    [rows, sort],
  );
  const short = useMemo(
    () => headers.map((_, col) => rows.every((r) => (r[col] ?? '').length <= SHORT)),
    [headers, rows],
  );
  const toggle = (col: number) =>
    setSort((s) => (s?.col === col ? { col, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { col, dir: 'asc' }));

  return (
    <div class="table-wrap">
      <table data-testid={testid} class={headers[0] === 'rank' ? 'sortable rank-first' : 'sortable'}>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {headers.map((h, col) => (
              <th key={col} scope="col" aria-sort={ariaSort(sort, col)} onClick={() => toggle(col)}>
                <button type="button" class="sort">
                  <span>{headerWords(h)}</span>
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
                return (
                  <td key={col} class={short[col] ? 'nowrap' : undefined}>
                    {renderCell ? renderCell(cell, i, col) : <ModelText text={cell} />}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
