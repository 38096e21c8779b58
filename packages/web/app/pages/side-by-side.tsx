import type { SideBySide } from '../api-schema';
import { ErrorBox, Loading, Note } from '../components/common';
import { ModelText } from '../components/model-text';
import { formatNumber } from '../format';
import { useFetch } from '../hooks';
import { href } from '../router';
import '../samples.css';

type Column = SideBySide['systems'][number];

// A column's scores, one row per metric of the document (so rows line up across columns).
function Scores({ column, metrics }: { column: Column; metrics: string[] }) {
  return (
    <table class="sbs-scores" data-testid={`sbs-scores-${column.system}`}>
      <tbody>
        {metrics.map((m) => {
          const v = column.values.find((x) => x.metric === m);
          const failed = v !== undefined && v.value === null;
          return (
            <tr key={m} class={failed ? 'failed' : undefined} data-metric={m}>
              <th scope="row">{m}</th>
              <td class="num" title={v ? `${v.producedBy}${v.failure ? `: ${v.failure}` : ''}` : undefined}>
                {v === undefined ? '–' : failed ? 'failed' : formatNumber(v.value)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function SystemColumn({ column, metrics }: { column: Column; metrics: string[] }) {
  const failures = column.values.filter((v) => v.value === null && v.failure);
  return (
    <section class="sbs-col" data-testid={`sbs-col-${column.system}`} data-system={column.system}>
      <h2>
        {column.system} {column.strategy ? <span class="muted small">({column.strategy})</span> : null}
      </h2>
      {column.producer ? <p class="muted small mono">{column.producer}</p> : null}
      <Scores column={column} metrics={metrics} />
      {failures.map((f) => (
        <p key={f.metric} class="run-error small">
          {f.metric}: {f.failure}
        </p>
      ))}
      {column.summary !== null ? (
        <div class="summary-text sbs-summary" data-testid="sbs-summary">
          <ModelText text={column.summary} />
        </div>
      ) : (
        <Note>No summary of this document.</Note>
      )}
    </section>
  );
}

// Each system's final summary of one document in its own column, its scores above it (columns
// scroll sideways when there are many systems).
export function SideBySidePage({ runId, documentId }: { runId: string; documentId: string }) {
  const { data, error } = useFetch('/api/v1/runs/{id}/side-by-side/{document}', {
    path: { id: runId, document: documentId },
  });
  return (
    <main class="wide">
      <nav class="crumbs" aria-label="breadcrumb">
        <a href={href.runs()}>Runs</a> / <a href={href.run(runId)}>run {runId.slice(0, 8)}</a> /{' '}
        <a href={href.document(runId, documentId)}>{data?.document.externalId ?? documentId}</a> /{' '}
        <span>side by side</span>
      </nav>
      {error ? <ErrorBox error={error} /> : null}
      {data ? (
        <div data-testid="side-by-side">
          <h1>
            Document {data.document.externalId}: {data.systems.length} systems side by side
          </h1>
          <p class="muted">
            Scores per summary above each summary; <a href={href.document(runId, documentId)}>the trace</a>{' '}
            shows every step and verdict.
          </p>
          {data.systems.length === 0 ? <Note>No system summarized this document.</Note> : null}
          <div class="sbs-grid" data-testid="sbs-grid">
            {data.systems.map((c) => (
              <SystemColumn key={c.system} column={c} metrics={data.metrics} />
            ))}
          </div>
        </div>
      ) : error ? null : (
        <Loading what="summaries" />
      )}
    </main>
  );
}
