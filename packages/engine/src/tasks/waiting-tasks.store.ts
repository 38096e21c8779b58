import { withHeldLedger } from '@precis/llm';
import type { DataSource } from 'typeorm';
import { heldLedgerCte } from './task-store.js';

// Tasks parked for provider batches (issue 39): 'waiting' while any of their model calls waits in
// llm_batch_waiters (error null), then queued again to run with the answers in the cache.

// Parks a running task whose work ended with parked calls; the claim that ran it is no attempt.
// False when its calls were all answered meanwhile (it must run again, not wait).
export function parkTask(db: DataSource, id: string): Promise<boolean> {
  return withHeldLedger(async (held) => {
    const ledger = heldLedgerCte(held, 2);
    const rows: { id: string }[] = await db.query(
      `WITH ${ledger.cte}parked AS (
         UPDATE tasks SET status = 'waiting', attempts = greatest(attempts - 1, 0), updated_at = now()
         WHERE id = $1 AND status = 'running'
           AND EXISTS (SELECT 1 FROM llm_batch_waiters w WHERE w.task_id = $1 AND w.error IS NULL)
         RETURNING id)
       SELECT id FROM parked`,
      [id, ...ledger.params],
    );
    return rows.length > 0;
  });
}

export interface ReadyTask {
  id: string;
  runId: string;
  stage: string;
  kind: string;
}

// Waiting tasks (of these ids, or of these runs) that no call keeps waiting any more, queued
// again: the caller sends them to their stage.
export async function requeueReadyTasks(
  db: DataSource,
  where: { taskIds: readonly string[] } | { runIds: readonly string[] },
): Promise<ReadyTask[]> {
  const [column, values] = 'taskIds' in where ? ['id', where.taskIds] : ['run_id', where.runIds];
  if (values.length === 0) return [];
  const cast = column === 'id' ? 'text[]' : 'uuid[]';
  const rows: { id: string; run_id: string; stage: string; kind: string }[] = await db.query(
    `WITH ready AS (
       UPDATE tasks AS t SET status = 'queued', updated_at = now()
       WHERE t.${column} = ANY($1::${cast}) AND t.status = 'waiting'
         AND NOT EXISTS (SELECT 1 FROM llm_batch_waiters w WHERE w.task_id = t.id AND w.error IS NULL)
       RETURNING t.id, t.run_id, t.stage, t.kind)
     SELECT * FROM ready ORDER BY id`,
    [values],
  );
  return rows.map((r) => ({ id: r.id, runId: r.run_id, stage: r.stage, kind: r.kind }));
}

// Tasks of each run waiting for provider batches.
export async function waitingTaskCounts(
  db: DataSource,
  runIds: readonly string[],
): Promise<Map<string, number>> {
  const rows: { run_id: string; n: number }[] = await db.query(
    `SELECT run_id, count(*)::int AS n FROM tasks WHERE run_id = ANY($1::uuid[]) AND status = 'waiting' GROUP BY run_id`,
    [runIds],
  );
  return new Map(rows.map((r) => [r.run_id, Number(r.n)]));
}
