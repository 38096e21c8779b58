import type { RunView } from '../api-schema';
import { BlockView } from '../components/block';
import { ErrorBox, Loading, Note, StatusBadge } from '../components/common';
import { FigureView } from '../components/figures';
import { LiveProgress } from '../components/progress';
import { RunFactsView } from '../components/run-facts';
import { Samples } from '../components/samples';
import { formatCost } from '../cost';
import { formatBatches, formatCalls, formatDate, formatTokens, isOpen } from '../format';
import { useFetch } from '../hooks';
import { href } from '../router';

// What the run page draws. A report file may embed blocks without a run or sections.
export type PageView = Omit<RunView, 'run' | 'sections'> & {
  run?: RunView['run'];
  sections?: RunView['sections'];
};

// Model calls, tokens (cached and reasoning shares where reported) and cost, as the ledger has
// them; an offline run (no model call) shows none.
function UsageFacts({ usage, open }: { usage: NonNullable<RunView['usage']>; open: boolean }) {
  return (
    <>
      <div>
        <dt>model calls</dt>
        <dd data-testid="usage-calls">{formatCalls(usage)}</dd>
      </div>
      <div>
        <dt>tokens</dt>
        <dd data-testid="usage-tokens">{formatTokens(usage)}</dd>
      </div>
      <div>
        <dt>cost</dt>
        <dd data-testid="usage-cost">{formatCost(usage.costUsd, usage.reservedUsd, open)}</dd>
      </div>
      {usage.batch?.calls ? (
        <div>
          <dt>provider batches</dt>
          <dd data-testid="usage-batches">{formatBatches(usage.batch)}</dd>
        </div>
      ) : null}
    </>
  );
}

// The provider batches of a batch-mode run: status, requests answered and failed, age.
function BatchesView({ batches }: { batches: NonNullable<RunView['batches']> }) {
  return (
    <section class="batches" data-testid="batches">
      <h2>Provider batches</h2>
      <p>
        {batches.waitingTasks} tasks waiting, {batches.queuedCalls} calls gathering for the next batch
      </p>
      <table>
        <thead>
          <tr>
            <th>batch</th>
            <th>status</th>
            <th>requests</th>
            <th>answered</th>
            <th>failed</th>
            <th>{'age (s)'}</th>
          </tr>
        </thead>
        <tbody>
          {batches.batches.map((b) => (
            <tr key={b.id}>
              <td class="mono">{b.providerBatchId ?? 'not sent yet'}</td>
              <td>{b.status}</td>
              <td>{b.requests}</td>
              <td>{b.completed}</td>
              <td>{b.failed}</td>
              <td>{b.ageSeconds}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RunHeader({ run, usage }: { run: RunView['run']; usage?: RunView['usage'] }) {
  return (
    <header class="run-head">
      <h1>{run.name}</h1>
      <dl class="facts">
        <div>
          <dt>status</dt>
          <dd>
            <StatusBadge status={run.status} />
          </dd>
        </div>
        <div>
          <dt>created</dt>
          <dd>{formatDate(run.createdAt)}</dd>
        </div>
        <div>
          <dt>finished</dt>
          <dd>{run.finishedAt ? formatDate(run.finishedAt) : isOpen(run.status) ? 'not yet' : '–'}</dd>
        </div>
        <div>
          <dt>id</dt>
          <dd class="mono">{run.id}</dd>
        </div>
        {usage?.calls ? <UsageFacts usage={usage} open={isOpen(run.status)} /> : null}
      </dl>
      {run.error ? (
        <p class="run-error" data-testid="run-error">
          {run.error}
        </p>
      ) : null}
    </header>
  );
}

// Figures then blocks: shared by the served run page and the static report file.
export function RunResults({ view }: { view: PageView }) {
  if (view.figures.length === 0 && view.blocks.length === 0) return <Note>No results yet.</Note>;
  return (
    <>
      {view.figures.length > 0 ? (
        <section class="figures">
          {view.figures.map((f) => (
            <FigureView key={f.key} figure={f} />
          ))}
        </section>
      ) : null}
      <section class="blocks">
        {view.blocks.map((b) => (
          <BlockView key={b.key} block={b} section={view.sections?.find((s) => s.key === b.key)} />
        ))}
      </section>
    </>
  );
}

export function StaticRunPage({ view }: { view: PageView }) {
  return (
    <main>
      {view.run ? <RunHeader run={view.run} usage={view.usage} /> : <h1>{view.title}</h1>}
      <RunResults view={view} />
    </main>
  );
}

export function RunPage({ runId }: { runId: string }) {
  const { data, error, reload } = useFetch('/api/v1/runs/{id}/view', { path: { id: runId } });
  return (
    <main>
      <nav class="crumbs" aria-label="breadcrumb">
        <a href={href.runs()}>Runs</a> / <span>{data?.run.name ?? runId}</span>
      </nav>
      {error ? <ErrorBox error={error} /> : null}
      {data ? (
        <>
          <RunHeader run={data.run} usage={data.usage} />
          {isOpen(data.run.status) ? <LiveProgress runId={runId} onEnd={reload} /> : null}
          {data.batches ? <BatchesView batches={data.batches} /> : null}
          <RunResults view={data} />
          {/* Re-read when the status changes (e.g. the run finished while open). */}
          <Samples key={`${runId}:${data.run.status}`} runId={runId} />
          <RunFactsView runId={runId} />
        </>
      ) : error ? null : (
        <Loading what="run" />
      )}
    </main>
  );
}
