import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CrossRunBoard } from '../api-schema';
import { ErrorBox, Loading, Note } from '../components/common';
import { SortableTable } from '../components/table';
import { formatNumber } from '../format';
import { useFetch } from '../hooks';
import { href } from '../router';

type Entry = CrossRunBoard['entries'][number];

const ENTRY_HEADERS = ['rank', 'system', 'mean', 'run', 'produced by'];
const COMPARISON_HEADERS = ['better', 'worse', 'mean diff', 'p', 'p (Holm)', 'significant'];

// Rows by mean, best first; a rank several systems share ('=2') is marked so the tie is visible.
function EntriesTable({ entries }: { entries: Entry[] }) {
  const rows = useMemo(
    () =>
      entries.map((e) => [
        e.rankLabel ?? String(e.rank),
        e.system,
        formatNumber(e.mean),
        e.run.name,
        e.producedBy,
      ]),
    [entries],
  );
  const renderCell = (cell: string, row: number, col: number) => {
    const e = entries[row];
    if (!e) return cell;
    if (col === 0)
      return cell.startsWith('=') ? (
        <span class="tied" title={`several systems share rank ${e.rank}`}>
          {cell} <span class="tie-mark">tied</span>
        </span>
      ) : (
        cell
      );
    if (col === 3) return <a href={href.run(e.run.id)}>{cell}</a>;
    return cell;
  };
  return <SortableTable headers={ENTRY_HEADERS} rows={rows} testid="compare" renderCell={renderCell} />;
}

function ComparisonsTable({ board }: { board: CrossRunBoard }) {
  const rows = useMemo(
    () =>
      board.comparisons.map((c) => [
        c.better,
        c.worse,
        formatNumber(c.meanDiff),
        formatNumber(c.p),
        formatNumber(c.pHolm),
        c.p === null ? 'not tested' : c.significant ? 'yes' : 'no',
      ]),
    [board],
  );
  if (rows.length === 0) return <Note>No comparisons (fewer than two systems).</Note>;
  return <SortableTable headers={COMPARISON_HEADERS} rows={rows} testid="compare-comparisons" />;
}

function MetricForm({ runs, metric }: { runs: string[]; metric: string | null }) {
  const [value, setValue] = useState(metric ?? '');
  useEffect(() => setValue(metric ?? ''), [metric]);
  const submit = (e: Event) => {
    e.preventDefault();
    location.hash = href.compare(runs, value.trim() || null);
  };
  return (
    <form class="inline-form" onSubmit={submit}>
      <label>
        metric{' '}
        <input
          value={value}
          title="empty: the server's default metric"
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </label>{' '}
      <button type="submit">Show</button>
    </form>
  );
}

function Board({ board }: { board: CrossRunBoard }) {
  return (
    <>
      <p class="lead">
        <strong>{board.metric}</strong>: {board.entries.length} systems on {board.documents} shared documents
        <span class="muted">
          {' '}
          (rows by mean; a rank is 1 + the systems significantly better: paired bootstrap, {board.resamples}{' '}
          resamples, Holm-corrected, alpha {board.alpha}; systems no test separates share a rank, marked =)
        </span>
      </p>
      <h2>Leaderboard</h2>
      <EntriesTable entries={board.entries} />
      {(board.notes ?? []).map((n, i) => (
        <p class="note" key={i} data-testid="compare-note">
          {n}
        </p>
      ))}
      <h2>Paired comparisons</h2>
      <ComparisonsTable board={board} />
    </>
  );
}

export function ComparePage({ runs, metric }: { runs: string[]; metric: string | null }) {
  const { data, error } = useFetch(runs.length > 0 ? '/api/v1/leaderboard' : null, {
    query: { runs: runs.join(','), ...(metric ? { metric } : {}) },
  });
  return (
    <main>
      <nav class="crumbs" aria-label="breadcrumb">
        <a href={href.runs()}>Runs</a> / <span>compare {runs.length} runs</span>
      </nav>
      <div class="page-head">
        <h1>Cross-run leaderboard</h1>
        <MetricForm runs={runs} metric={metric} />
      </div>
      {runs.length === 0 ? <Note>Select runs to compare on the runs page.</Note> : null}
      {error ? <ErrorBox error={error} /> : null}
      {data ? <Board board={data} /> : error || runs.length === 0 ? null : <Loading what="leaderboard" />}
    </main>
  );
}
