import { enc } from '../api';
import type { Trace } from '../api-types';
import { BlockView } from '../components/block';
import { ErrorBox, Loading, Note, StatusBadge } from '../components/common';
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
      {summary !== null ? <div class="summary-text">{summary}</div> : null}
      {step.error ? <p class="run-error">{step.error}</p> : null}
    </li>
  );
}

function SystemTrace({ system }: { system: TraceSystem }) {
  return (
    <section class="block">
      <h3>
        {system.system} <span class="muted">({system.strategy})</span>
      </h3>
      {system.steps.length === 0 ? (
        <Note>No steps.</Note>
      ) : (
        <ol class="steps">
          {system.steps.map((s, i) => (
            <StepView key={s.taskId} step={s} index={i} />
          ))}
        </ol>
      )}
    </section>
  );
}

function TraceView({ trace }: { trace: Trace }) {
  return (
    <div data-testid="trace">
      <h1>
        Document {trace.document.externalId} <span class="muted small mono">{trace.document.id}</span>
      </h1>
      <h2>Summaries</h2>
      {trace.systems.length === 0 ? <Note>No system summarized this document.</Note> : null}
      {trace.systems.map((s) => (
        <SystemTrace key={s.system} system={s} />
      ))}
      <h2>Verdicts</h2>
      {trace.verdicts.length === 0 ? <Note>No verdicts for this document.</Note> : null}
      {trace.verdicts.map((b) => (
        <BlockView key={b.key} block={b} />
      ))}
    </div>
  );
}

export function DocumentPage({ runId, documentId }: { runId: string; documentId: string }) {
  const { data, error } = useFetch<Trace>(`/runs/${enc(runId)}/traces/${enc(documentId)}`);
  return (
    <main>
      <nav class="crumbs" aria-label="breadcrumb">
        <a href={href.runs()}>Runs</a> / <a href={href.run(runId)}>run {runId.slice(0, 8)}</a> /{' '}
        <span>{documentId}</span>
      </nav>
      {error ? <ErrorBox error={error} /> : null}
      {data ? <TraceView trace={data} /> : error ? null : <Loading what="document trace" />}
    </main>
  );
}
