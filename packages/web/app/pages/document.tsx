import type { Trace } from '../api-schema';
import { BlockView } from '../components/block';
import { ErrorBox, Loading, Note, StatusBadge } from '../components/common';
import { ModelText } from '../components/model-text';
import { Transcripts } from '../components/transcript';
import { useFetch } from '../hooks';
import { href } from '../router';

type TraceSystem = Trace['systems'][number];
type Step = TraceSystem['steps'][number];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const text = (o: Record<string, unknown> | null, key: string): string | null => {
  const v = o?.[key];
  return typeof v === 'string' ? v : null;
};

// Multi-step strategies name each step (key and role, e.g. "h/1/0 merge"); one-step ones by type.
function stepLabel(step: Step): string | null {
  const s = step.payload['step'];
  if (isRecord(s) && typeof s['key'] === 'string')
    return typeof s['role'] === 'string' ? `${s['key']} ${s['role']}` : s['key'];
  return text(step.payload, 'type');
}

// Results carry the step's output as `summary` (or `text`, as the summarize tasks store it).
const stepSummary = (step: Step): string | null => text(step.result, 'summary') ?? text(step.result, 'text');

function StepView({ step, index }: { step: Step; index: number }) {
  const summary = stepSummary(step);
  return (
    <li class="step">
      <div class="step-head">
        <span class="muted">#{index + 1}</span> <strong>{stepLabel(step) ?? 'step'}</strong>{' '}
        <StatusBadge status={step.status} /> <span class="muted small mono">{step.taskId}</span>
      </div>
      {summary !== null ? (
        <div class="summary-text">
          <ModelText text={summary} />
        </div>
      ) : null}
      {step.error ? <p class="run-error">{step.error}</p> : null}
    </li>
  );
}

// A system's summary of the document: what its last step (in run order, as the API gives them) wrote.
function FinalSummary({ system }: { system: TraceSystem }) {
  const last = system.steps.at(-1);
  const summary = last && last.status === 'done' ? stepSummary(last) : null;
  return (
    <section class="block" data-testid={`final-summary-${system.system}`}>
      <h3>
        {system.system} <span class="muted">({system.strategy})</span>{' '}
        {last ? <small class="block-label">{stepLabel(last)}</small> : null}
      </h3>
      {summary !== null ? (
        <div class="summary-text final">
          <ModelText text={summary} />
        </div>
      ) : (
        <Note>
          {last
            ? `No final summary: its last step is ${last.status}.`
            : 'No steps stored for this system: its summary, if any, is under Verdicts.'}
        </Note>
      )}
      {last?.error ? <p class="run-error">{last.error}</p> : null}
    </section>
  );
}

// Every step of a system, collapsed: a book has a hundred of them, the final summary is above.
function SystemSteps({ system }: { system: TraceSystem }) {
  const n = system.steps.length;
  return (
    <details class="block system-steps" data-testid={`steps-${system.system}`}>
      <summary>
        <strong>{system.system}</strong> <span class="muted">({system.strategy})</span>: {n}{' '}
        {n === 1 ? 'step' : 'steps'}
      </summary>
      <ol class="steps">
        {system.steps.map((s, i) => (
          <StepView key={s.taskId} step={s} index={i} />
        ))}
      </ol>
    </details>
  );
}

// Final summaries, then the verdicts on them, then every system's steps (collapsed).
function TraceView({ trace }: { trace: Trace }) {
  const stepped = trace.systems.filter((s) => s.steps.length > 0);
  return (
    <div data-testid="trace">
      <h1>
        Document {trace.document.externalId} <span class="muted small mono">{trace.document.id}</span>
      </h1>
      <h2>Final summaries</h2>
      {trace.systems.length === 0 ? <Note>No system summarized this document.</Note> : null}
      {trace.systems.map((s) => (
        <FinalSummary key={s.system} system={s} />
      ))}
      <h2>Verdicts</h2>
      {trace.verdicts.length === 0 ? <Note>No verdicts for this document.</Note> : null}
      {trace.verdicts.map((b) => (
        <BlockView key={b.key} block={b} />
      ))}
      {stepped.length > 0 ? <h2>Steps</h2> : null}
      {stepped.map((s) => (
        <SystemSteps key={s.system} system={s} />
      ))}
    </div>
  );
}

export function DocumentPage({ runId, documentId }: { runId: string; documentId: string }) {
  const { data, error } = useFetch('/api/v1/runs/{id}/traces/{document}', {
    path: { id: runId, document: documentId },
  });
  return (
    <main>
      <nav class="crumbs" aria-label="breadcrumb">
        <a href={href.runs()}>Runs</a> / <a href={href.run(runId)}>run {runId.slice(0, 8)}</a> /{' '}
        <span>{documentId}</span> ·{' '}
        <a href={href.sideBySide(runId, documentId)} data-testid="side-by-side-link">
          summaries side by side
        </a>
      </nav>
      {error ? <ErrorBox error={error} /> : null}
      {data ? (
        <>
          <TraceView trace={data} />
          <Transcripts runId={runId} trace={data} />
        </>
      ) : error ? null : (
        <Loading what="document trace" />
      )}
    </main>
  );
}
