import { OPEN_RUN_STATUSES, RunEntity, type RunStatus, toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { type CounterRow, runCounterRows, runStateRows } from '../stores/runs.store.js';
import { cancelOpenTasks } from '../stores/tasks.store.js';

export interface StageTotals {
  total: number;
  done: number;
  failed: number;
  // Ended with their run (stopped, cancelled or failed) before they finished.
  cancelled: number;
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
  return countsOf(await runCounterRows(db, runId));
}

// A run's status (null when there is no such run) and counters, from one snapshot.
export async function runState(
  db: DataSource,
  runId: string,
): Promise<{ run: { status: RunStatus; error: string | null } | null; counts: RunCounts }> {
  const rows = await runStateRows(db, runId);
  const run = rows[0] ? { status: rows[0].status, error: rows[0].error } : null;
  return { run, counts: countsOf(rows.filter((r) => r.key !== null)) };
}

function countsOf(rows: readonly CounterRow[]): RunCounts {
  const out: RunCounts = { summaries: { expected: 0, done: 0, failed: 0 }, tasks: {} };
  for (const r of rows) {
    const c = {
      total: toNumber(r.total as string),
      done: toNumber(r.done as string),
      failed: toNumber(r.failed as string),
      cancelled: toNumber(r.cancelled as string),
    };
    if (r.key === 'summaries') out.summaries = { expected: c.total, done: c.done, failed: c.failed };
    else out.tasks[r.key] = c;
  }
  return out;
}

// A stage's tasks not finished yet.
export function openOf(c: StageTotals): number {
  return c.total - c.done - c.failed - c.cancelled;
}

// Tasks not finished yet, over every stage.
export function openTasks(counts: RunCounts): number {
  return Object.values(counts.tasks).reduce((n, c) => n + openOf(c), 0);
}

export function failedTasks(counts: RunCounts): number {
  return Object.values(counts.tasks).reduce((n, c) => n + c.failed, 0);
}

export function isOpenRunStatus(status: RunStatus): boolean {
  return OPEN_RUN_STATUSES.includes(status);
}

// Moves an open run to `status`; a run that meanwhile left the open states (cancelled, stopped)
// keeps its state, which is returned with applied: false. A run that ends this way ends its open
// tasks with it (cancelled, in the same transaction): none stays queued or running for ever.
export async function setRunStatus(
  db: DataSource,
  runId: string,
  status: RunStatus,
  error: string | null,
): Promise<{ applied: boolean; status: RunStatus; error: string | null }> {
  const finished = !isOpenRunStatus(status);
  const applied = await db.transaction(async (m) => {
    const res = await m
      .getRepository(RunEntity)
      .update(
        { id: runId, status: In([...OPEN_RUN_STATUSES]) },
        { status, error, ...(finished ? { finishedAt: new Date() } : {}) },
      );
    if (!res.affected) return false;
    if (finished) await cancelOpenTasks(m, runId, `the run ended (${status}) before this task finished`);
    return true;
  });
  if (applied) return { applied: true, status, error };
  const current = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  return { applied: false, status: current.status, error: current.error };
}
