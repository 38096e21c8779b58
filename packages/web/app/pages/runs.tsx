import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiError, getJson, isAbort, toApiError } from '../api';
import type { Run } from '../api-schema';
import { useAuth } from '../auth';
import { ErrorBox, Loading, Note, StatusBadge } from '../components/common';
import { formatCost, formatScore } from '../cost';
import { formatDate, isOpen } from '../format';
import { href } from '../router';

const PAGE_SIZE = 50;
const POLL_MS = 2000;

interface Listing {
  // Pages as loaded; polling replaces the first one (where new and live runs are).
  pages: Run[][];
  next: string;
}

const runsPage = (token: string) => ({ query: { limit: PAGE_SIZE, ...(token ? { pageToken: token } : {}) } });

// A run can move from one page to the next while polling: each is listed once.
function flatten(pages: Run[][]): Run[] {
  const byId = new Map<string, Run>();
  for (const r of pages.flat()) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}

// The runs list, refreshed every 2 s while any shown run is pending or running.
function useRuns() {
  const { version } = useAuth();
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [more, setMore] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const ctrl = new AbortController();
    getJson('/api/v1/runs', runsPage(''), ctrl.signal).then(
      (list) => {
        setError(null);
        setListing((l) => ({
          pages: [list.runs, ...(l?.pages.slice(1) ?? [])],
          next: l && l.pages.length > 1 ? l.next : list.nextPageToken,
        }));
      },
      (e: unknown) => {
        if (!isAbort(e)) setError(toApiError(e));
      },
    );
    return () => ctrl.abort();
  }, [tick, version]);

  const runs = listing ? flatten(listing.pages) : [];
  const live = runs.some((r) => isOpen(r.status));
  // A refused request (4xx) is not repeated; a failed connection is.
  const refused = error !== null && error.status >= 400 && error.status < 500;
  useEffect(() => {
    if (!live || refused) return;
    const t = window.setTimeout(() => setTick((n) => n + 1), POLL_MS);
    return () => window.clearTimeout(t);
  }, [live, refused, listing, error]);

  const loadMore = useCallback(() => {
    if (!listing?.next) return;
    setMore(true);
    getJson('/api/v1/runs', runsPage(listing.next))
      .then(
        (list) => setListing((l) => ({ pages: [...(l?.pages ?? []), list.runs], next: list.nextPageToken })),
        (e: unknown) => setError(toApiError(e)),
      )
      .finally(() => setMore(false));
  }, [listing]);

  return { runs, listing, error, loadMore, loadingMore: more };
}

function taskCount(run: Run, key: string): number {
  return run.taskCounts[key] ?? 0;
}

function RunRow({ run, checked, onToggle }: { run: Run; checked: boolean; onToggle: () => void }) {
  return (
    <tr data-testid="run-row" data-run-id={run.id}>
      <td>
        <input type="checkbox" checked={checked} onChange={onToggle} aria-label={`select ${run.name}`} />
      </td>
      <td>
        <a href={href.run(run.id)}>{run.name}</a>
        <div class="muted small mono">{run.id.slice(0, 8)}</div>
      </td>
      <td>
        <StatusBadge status={run.status} />
        {run.error ? <div class="small error-text">{run.error}</div> : null}
      </td>
      <td>{formatDate(run.createdAt)}</td>
      <td class="num" data-testid="run-tasks">
        {taskCount(run, 'done')} /{' '}
        <span class={taskCount(run, 'failed') > 0 ? 'error-text' : ''}>{taskCount(run, 'failed')}</span> /{' '}
        {taskCount(run, 'open')}
      </td>
      <td class="num" data-testid="run-cost">
        {formatCost(run.costUsd, run.reservedUsd, isOpen(run.status))}
      </td>
      <td data-testid="run-datasets">{run.datasets?.join(', ') || '–'}</td>
      <td data-testid="run-best">
        {run.headline ? (
          <>
            <span class="num">{formatScore(run.headline.score)}</span> {run.headline.system}
            {run.headline.tiedWith > 0 ? (
              <span class="muted">
                {' '}
                (rank {run.headline.rankLabel} with {run.headline.tiedWith} other
                {run.headline.tiedWith === 1 ? '' : 's'})
              </span>
            ) : null}
            <div class="muted small">{run.headline.metric}</div>
          </>
        ) : (
          '–'
        )}
      </td>
    </tr>
  );
}

function RunsTable({
  runs,
  selected,
  toggle,
}: {
  runs: Run[];
  selected: Set<string>;
  toggle: (id: string) => void;
}) {
  return (
    <div class="table-wrap">
      <table data-testid="runs">
        <thead>
          <tr>
            <th scope="col">
              <span class="sr-only">compare</span>
            </th>
            <th scope="col">name</th>
            <th scope="col">status</th>
            <th scope="col">created</th>
            <th scope="col" class="num" title="tasks done / failed / open">
              tasks done / failed / open
            </th>
            <th scope="col" class="num" title="spent by settled model calls; calls in flight apart">
              cost
            </th>
            <th scope="col">datasets</th>
            <th scope="col" title="the first leaderboard's ranking metric: its best system">
              best
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <RunRow key={r.id} run={r} checked={selected.has(r.id)} onToggle={() => toggle(r.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RunsPage() {
  const { runs, listing, error, loadMore, loadingMore } = useRuns();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // Compare in the order the runs are listed, whatever the order they were ticked.
  const chosen = runs.filter((r) => selected.has(r.id)).map((r) => r.id);
  return (
    <main>
      <div class="page-head">
        <h1>Runs</h1>
        <button
          type="button"
          disabled={chosen.length === 0}
          onClick={() => (location.hash = href.compare(chosen))}
        >
          Compare selected{chosen.length > 0 ? ` (${chosen.length})` : ''}
        </button>
      </div>
      {error ? <ErrorBox error={error} /> : null}
      {listing === null ? (
        error ? null : (
          <Loading what="runs" />
        )
      ) : runs.length === 0 ? (
        <Note>No runs yet.</Note>
      ) : (
        <RunsTable runs={runs} selected={selected} toggle={toggle} />
      )}
      {listing?.next ? (
        <button type="button" class="secondary" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more runs'}
        </button>
      ) : null}
    </main>
  );
}
