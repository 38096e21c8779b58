import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, getJson, isAbort, toApiError } from '../api';
import type { Sample, SampleQuery } from '../api-schema';
import { useAuth } from '../auth';
import { formatNumber } from '../format';
import { href } from '../router';
import { isFiltered, NO_FILTERS, type SampleView, sampleQuery } from '../sample-query';
import '../samples.css';
import { ErrorBox, Loading, Note } from './common';
import { SampleFilters, SampleHeader } from './sample-filters';
import { useVirtualizer } from './use-virtualizer';

const ROW_HEIGHT = 32;
const PAGE_SIZE = 200;
// At most one batch of page requests per interval while the user scrolls.
const FETCH_INTERVAL_MS = 100;

interface PagedSamples {
  total: number | null;
  // The run's systems and metrics (the filters' choices), from the first page.
  systems: string[];
  metrics: string[];
  error: ApiError | null;
  row(index: number): Sample | undefined;
  request(first: number, last: number): void;
}

// Pages of 200 samples (filtered and sorted by the server, as `query` asks) fetched on demand and
// kept; the first page gives the total. A new query starts again from the first page.
function usePagedSamples(runId: string, query: SampleQuery): PagedSamples {
  const { version } = useAuth();
  const pages = useRef(new Map<number, Sample[]>());
  const inflight = useRef(new Set<number>());
  const signal = useRef<AbortSignal | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [facets, setFacets] = useState<{ systems: string[]; metrics: string[] }>({
    systems: [],
    metrics: [],
  });
  const [error, setError] = useState<ApiError | null>(null);
  const [, setLoaded] = useState(0);

  const fetchPage = useCallback(
    (page: number) => {
      const held = pages.current;
      const pending = inflight.current;
      if (held.has(page) || pending.has(page) || !signal.current) return;
      pending.add(page);
      const params = { path: { id: runId }, query: { ...query, offset: page * PAGE_SIZE, limit: PAGE_SIZE } };
      getJson('/api/v1/runs/{id}/samples', params, signal.current)
        .then(
          (p) => {
            held.set(page, p.samples);
            if (page === 0) {
              setTotal(p.total);
              setFacets({ systems: p.systems, metrics: p.metrics });
            }
            setError(null);
            setLoaded((n) => n + 1);
          },
          (e: unknown) => {
            if (!isAbort(e)) setError(toApiError(e));
          },
        )
        .finally(() => pending.delete(page));
    },
    [runId, query],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    signal.current = ctrl.signal;
    pages.current = new Map();
    inflight.current = new Set();
    setTotal(null);
    setError(null);
    fetchPage(0);
    return () => ctrl.abort();
  }, [fetchPage, version]);

  const request = useCallback(
    (first: number, last: number) => {
      for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p++) fetchPage(p);
    },
    [fetchPage],
  );
  const row = (i: number) => pages.current.get(Math.floor(i / PAGE_SIZE))?.[i % PAGE_SIZE];
  return { total, ...facets, error, row, request };
}

// Requests the rows in view, throttled: a fast scroll through 100,000 rows asks for a few pages.
function useRangeRequests(first: number, last: number, request: (first: number, last: number) => void) {
  const range = useRef({ first, last });
  const timer = useRef<number | null>(null);
  range.current = { first, last };
  useEffect(() => {
    if (last < 0 || timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      request(range.current.first, range.current.last);
    }, FETCH_INTERVAL_MS);
  }, [first, last, request]);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
}

interface RowProps {
  runId: string;
  sample: Sample | undefined;
  index: number;
  start: number;
}

function SampleRow({ runId, sample, index, start }: RowProps) {
  const style = { transform: `translateY(${start}px)` };
  if (!sample)
    return (
      <tr class="vrow loading" style={style} aria-rowindex={index + 2} data-testid="sample-row-loading">
        <td>…</td>
      </tr>
    );
  // The document link is stretched over the whole row (CSS), so a click anywhere opens the trace.
  return (
    <tr class="vrow" style={style} aria-rowindex={index + 2} data-testid="sample-row">
      <td title={sample.document}>
        <a class="row-link" href={href.document(runId, sample.documentId)}>
          {sample.document}
        </a>
      </td>
      <td>{sample.system}</td>
      <td>{sample.metric}</td>
      <td class={sample.value === null ? 'num failed' : 'num'}>
        {sample.value === null ? 'failed' : formatNumber(sample.value)}
      </td>
      <td title={sample.producedBy}>{sample.producedBy}</td>
      <td>
        <a class="side-link" href={href.sideBySide(runId, sample.documentId)} data-testid="side-by-side-link">
          side by side
        </a>
      </td>
    </tr>
  );
}

interface TableProps {
  runId: string;
  paged: PagedSamples;
  total: number;
  view: SampleView;
  onView: (view: SampleView) => void;
}

function SampleTable({ runId, paged, total, view, onView }: TableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The sticky header row (one row high) sits above the rows inside the scroller.
    scrollMargin: ROW_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  useRangeRequests(items[0]?.index ?? 0, items[items.length - 1]?.index ?? -1, paged.request);
  return (
    <div
      class="vtable samples-table"
      ref={scroller}
      data-testid="samples"
      // A few rows (a narrow filter) take their own height, not the table's full one.
      style={{ height: `min(70vh, 640px, ${(total + 1) * ROW_HEIGHT + 2}px)` }}
    >
      <table aria-rowcount={total + 1}>
        <thead>
          <SampleHeader view={view} onChange={onView} />
        </thead>
        <tbody style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => (
            <SampleRow
              key={item.key}
              runId={runId}
              sample={paged.row(item.index)}
              index={item.index}
              start={item.start - ROW_HEIGHT}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

// What the table says above itself: the count, or why there are no rows.
function SamplesNote({ paged, view }: { paged: PagedSamples; view: SampleView }) {
  if (paged.total === null) return paged.error ? null : <Loading what="samples" />;
  if (paged.total === 0)
    return (
      <Note>{isFiltered(view) ? 'No values match these filters.' : 'No per-summary metric values yet.'}</Note>
    );
  const what = isFiltered(view)
    ? `${paged.total.toLocaleString()} values match`
    : `${paged.total.toLocaleString()} values`;
  return (
    <p class="muted" data-testid="samples-count">
      {what}; click a row to see its document.
    </p>
  );
}

// Per-summary metric values of a run, filtered, sorted and paged by the server; a row opens its
// document's trace, its last cell the document's summaries side by side.
export function Samples({ runId }: { runId: string }) {
  const [view, setView] = useState<SampleView>(NO_FILTERS);
  const query = useMemo(() => sampleQuery(view), [view]);
  const paged = usePagedSamples(runId, query);
  const unfilteredEmpty = paged.total === 0 && !isFiltered(view);
  return (
    <section class="samples">
      <h2>Samples</h2>
      {paged.error ? <ErrorBox error={paged.error} /> : null}
      {paged.systems.length > 0 && !unfilteredEmpty ? (
        <SampleFilters view={view} systems={paged.systems} metrics={paged.metrics} onChange={setView} />
      ) : null}
      <SamplesNote paged={paged} view={view} />
      {paged.total ? (
        <SampleTable
          key={query}
          runId={runId}
          paged={paged}
          total={paged.total}
          view={view}
          onView={setView}
        />
      ) : null}
    </section>
  );
}
