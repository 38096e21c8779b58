import { OPEN_RUN_STATUSES, RunEntity, type RunStatus, toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';

export interface StageTotals {
  total: number;
  done: number;
  failed: number;
}

export interface RunProgress {
  runId: string;
  status: RunStatus;
  // Units (system, document): expected, summarized, failed.
  summaries: { expected: number; done: number; failed: number };
  tasks: Record<string, StageTotals>;
  dispatched: number;
  error: string | null;
}

export interface RunCounts {
  summaries: RunProgress['summaries'];
  tasks: Record<string, StageTotals>;
}

// A run's counters (kept by triggers as rows are written; migration RunCounters): one indexed read,
// whatever the size of the run.
export async function runCounts(db: DataSource, runId: string): Promise<RunCounts> {
  const rows: { key: string; total: unknown; done: unknown; failed: unknown }[] = await db.query(
    'SELECT key, total, done, failed FROM run_counters WHERE run_id = $1 ORDER BY key',
    [runId],
  );
  const out: RunCounts = { summaries: { expected: 0, done: 0, failed: 0 }, tasks: {} };
  for (const r of rows) {
    const c = {
      total: toNumber(r.total as string),
      done: toNumber(r.done as string),
      failed: toNumber(r.failed as string),
    };
    if (r.key === 'summaries') out.summaries = { expected: c.total, done: c.done, failed: c.failed };
    else out.tasks[r.key] = c;
  }
  return out;
}

// Tasks not finished yet, over every stage.
export function openTasks(counts: RunCounts): number {
  return Object.values(counts.tasks).reduce((n, c) => n + c.total - c.done - c.failed, 0);
}

export function failedTasks(counts: RunCounts): number {
  return Object.values(counts.tasks).reduce((n, c) => n + c.failed, 0);
}

export function isOpenRunStatus(status: RunStatus): boolean {
  return OPEN_RUN_STATUSES.includes(status);
}

// Moves an open run to `status`; a run that meanwhile left the open states (cancelled, stopped)
// keeps its state, which is returned with applied: false.
export async function setRunStatus(
  db: DataSource,
  runId: string,
  status: RunStatus,
  error: string | null,
): Promise<{ applied: boolean; status: RunStatus; error: string | null }> {
  const finished = !isOpenRunStatus(status);
  const res = await db
    .getRepository(RunEntity)
    .update(
      { id: runId, status: In([...OPEN_RUN_STATUSES]) },
      { status, error, ...(finished ? { finishedAt: new Date() } : {}) },
    );
  if (res.affected) return { applied: true, status, error };
  const current = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  return { applied: false, status: current.status, error: current.error };
}
