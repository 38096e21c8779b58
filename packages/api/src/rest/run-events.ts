import { type MessageEvent, NotFoundException } from '@nestjs/common';
import { RunEntity } from '@precis/db';
import {
  isOpenRunStatus,
  runBlockedBy,
  runCounts,
  type StageTotals,
  waitingTaskCounts,
} from '@precis/engine';
import { distinctUntilChanged, from, map, type Observable, switchMap, takeWhile, timer } from 'rxjs';
import type { DataSource } from 'typeorm';

// How often a progress stream reads the run's counters (one indexed read each).
const POLL_MS = 1000;

export interface RunProgressEvent {
  id: string;
  status: string;
  error: string | null;
  summaries: { expected: number; done: number; failed: number };
  tasks: Record<string, StageTotals>;
  // What keeps the open run from progressing (a stage queue that keeps failing), or null.
  blockedBy: string | null;
  // Tasks waiting for provider batches (limits.batch).
  waitingTasks: number;
}

async function snapshot(db: DataSource, id: string): Promise<RunProgressEvent> {
  const run = await db
    .getRepository(RunEntity)
    .findOne({ where: { id }, select: { id: true, status: true, error: true } });
  if (!run) throw new NotFoundException(`run ${id} was deleted`);
  const [counts, waiting] = await Promise.all([runCounts(db, id), waitingTaskCounts(db, [id])]);
  const blockedBy = await runBlockedBy(db, run.status, counts.tasks);
  const waitingTasks = waiting.get(id) ?? 0;
  return { id, status: run.status, error: run.error, ...counts, blockedBy: blockedBy || null, waitingTasks };
}

// A run's progress as server-sent events: one `progress` event whenever its counters or status
// change, the last one with its final status, then the stream ends.
export function runProgressEvents(db: DataSource, id: string): Observable<MessageEvent> {
  return timer(0, POLL_MS).pipe(
    switchMap(() => from(snapshot(db, id))),
    distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
    takeWhile((p) => isOpenRunStatus(p.status as RunEntity['status']), true),
    map((p) => ({ type: 'progress', data: p })),
  );
}
