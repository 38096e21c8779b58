import { type MessageEvent, NotFoundException } from '@nestjs/common';
import { RunEntity } from '@precis/db';
import { isOpenRunStatus, runBlockedBy, runCounts, waitingTaskCounts } from '@precis/engine';
import { distinctUntilChanged, from, map, type Observable, switchMap, takeWhile, timer } from 'rxjs';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { runProgressDto } from './page-dto.js';

// How often a progress stream reads the run's counters (one indexed read each).
const POLL_MS = 1000;

// The document's RunProgress (page-dto.ts): what each event carries.
export type RunProgressEvent = z.output<typeof runProgressDto>;

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
