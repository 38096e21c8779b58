import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, enc, isAbort, readEvents, toApiError } from '../api';
import type { RunProgress } from '../api-schema';
import { useAuth } from '../auth';
import { ErrorBox, StatusBadge } from './common';

// After the stream ends, the view is reloaded; if the run is still open, listen again.
const RECONNECT_MS = 2000;
const RETRY_AFTER_ERROR_MS = 5000;

const pct = (n: number, of: number) => (of > 0 ? `${Math.min(100, (100 * n) / of)}%` : '0%');

function Bar({ done, failed, of }: { done: number; failed: number; of: number }) {
  return (
    <span class="progress-track">
      <span class="progress-done" style={{ width: pct(done, of) }} />
      <span class="progress-failed" style={{ width: pct(failed, of) }} />
    </span>
  );
}

export function ProgressView({ progress }: { progress: RunProgress }) {
  const { expected, done, failed } = progress.summaries;
  return (
    <div
      class="progress"
      data-testid="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={expected}
      aria-valuenow={done + failed}
    >
      <div class="progress-head">
        <StatusBadge status={progress.status} />
        <span class="progress-text">
          {done}/{expected} summaries{failed > 0 ? `, ${failed} failed` : ''}
        </span>
      </div>
      <Bar done={done} failed={failed} of={expected} />
      {progress.blockedBy ? (
        <p class="blocked" data-testid="blocked" role="alert">
          Blocked: {progress.blockedBy}
        </p>
      ) : null}
      {progress.waitingTasks ? (
        <p class="waiting" data-testid="waiting">
          {progress.waitingTasks} tasks waiting for provider batches
        </p>
      ) : null}
      <ul class="stages">
        {Object.entries(progress.tasks).map(([stage, t]) => (
          <li key={stage}>
            <span class="stage-name">{stage}</span> {t.done}/{t.total} tasks
            {t.failed > 0 ? `, ${t.failed} failed` : ''}
            {t.cancelled > 0 ? `, ${t.cancelled} cancelled` : ''}
            <Bar done={t.done} failed={t.failed} of={t.total} />
          </li>
        ))}
      </ul>
    </div>
  );
}

// Follows the run's SSE stream (read with fetch, so the API key header can be sent).
export function LiveProgress({ runId, onEnd }: { runId: string; onEnd: () => void }) {
  const { version } = useAuth();
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  useEffect(() => {
    const ctrl = new AbortController();
    let retry: number | undefined;
    const again = (ms: number) => {
      retry = window.setTimeout(() => setAttempt((a) => a + 1), ms);
    };
    const onEvent = (e: { event: string; data: string }) => {
      if (e.event !== 'progress') return;
      try {
        setProgress(JSON.parse(e.data) as RunProgress);
        setError(null);
      } catch {
        setError(new ApiError(`unreadable progress event: ${e.data.slice(0, 80)}`, 0));
      }
    };
    readEvents(`/runs/${enc(runId)}/events`, onEvent, ctrl.signal).then(
      () => {
        onEndRef.current();
        again(RECONNECT_MS);
      },
      (e: unknown) => {
        if (isAbort(e)) return;
        const err = toApiError(e);
        setError(err);
        // A refused request (4xx) stays refused; a dropped connection is tried again.
        if (err.status === 0 || err.status >= 500) again(RETRY_AFTER_ERROR_MS);
      },
    );
    return () => {
      ctrl.abort();
      window.clearTimeout(retry);
    };
  }, [runId, attempt, version]);

  return (
    <section class="live">
      {error ? <ErrorBox error={error} title="Live progress" /> : null}
      {progress ? (
        <ProgressView progress={progress} />
      ) : error ? null : (
        <p class="loading">Waiting for progress…</p>
      )}
    </section>
  );
}
