import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api';

const KNOWN_STATUSES = new Set([
  'pending',
  'running',
  'completed',
  'completed-with-failures',
  'failed',
  'stopped',
  'interrupted',
  'cancelled',
  // Task states (drill-down steps).
  'queued',
  'done',
  'skipped',
]);

export function StatusBadge({ status }: { status: string }) {
  const known = KNOWN_STATUSES.has(status) ? status : 'unknown';
  return (
    <span class={`status status-${known}`} data-testid="status">
      {status}
    </span>
  );
}

export function ErrorBox({ error, title }: { error: ApiError | Error | string; title?: string }) {
  const message = typeof error === 'string' ? error : error.message;
  return (
    <div class="error" role="alert" data-testid="error">
      {title ? <strong>{title}: </strong> : null}
      {message}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Note({ children }: { children: ComponentChildren }) {
  return <p class="note">{children}</p>;
}
