import type { DataSource } from 'typeorm';
import { FINISHED_SQL } from '../tasks/task-store.js';

// The batch driver's reads and writes of batch work: the endpoints with some, and the work no
// open task waits for any more (its runs were cancelled, stopped or failed).

// A task still waits for the call (`c` in the SQL it is used in).
const LIVE_WAITER = `EXISTS (SELECT 1 FROM llm_batch_waiters w JOIN tasks t ON t.id = w.task_id
  WHERE w.cache_key = c.cache_key AND w.error IS NULL AND t.status NOT IN ${FINISHED_SQL})`;

// Sent batches of these endpoints none of whose calls an open task waits for: to cancel.
export async function orphanBatches(
  db: DataSource,
  endpoint: string,
): Promise<{ id: string; providerBatchId: string }[]> {
  const rows: { id: string; provider_batch_id: string }[] = await db.query(
    `SELECT b.id, b.provider_batch_id FROM llm_batches b
     WHERE b.endpoint = $1 AND b.ended_at IS NULL AND b.provider_batch_id IS NOT NULL
       AND b.status NOT IN ('cancelling', 'cancelled')
       AND NOT EXISTS (SELECT 1 FROM llm_batch_calls c WHERE c.batch_id = b.id AND ${LIVE_WAITER})
     ORDER BY b.created_at`,
    [endpoint],
  );
  return rows.map((r) => ({ id: r.id, providerBatchId: r.provider_batch_id }));
}

// Drops an endpoint's queued calls that no open task waits for; their ledger rows settle as
// errors at no cost (never sent). The number dropped.
export async function dropOrphanCalls(db: DataSource, endpoint: string): Promise<number> {
  const rows: { n: number }[] = await db.query(
    `WITH gone AS (
       DELETE FROM llm_batch_calls c WHERE c.endpoint = $1 AND c.status = 'queued' AND NOT ${LIVE_WAITER}
       RETURNING c.cache_key, c.ledger_id
     ), ledger AS (
       UPDATE llm_calls l SET status = 'error', cost_usd = 0, list_cost_usd = 0,
         error = 'not sent: no task waits for this call any more (its run ended before its batch went out)'
       FROM gone g WHERE l.id = g.ledger_id
     ), waiters AS (
       DELETE FROM llm_batch_waiters w USING gone g WHERE w.cache_key = g.cache_key
     ) SELECT count(*)::int AS n FROM gone`,
    [endpoint],
  );
  return Number(rows[0]?.n ?? 0);
}

// Whether a stage of `runIds` (the runs this process drives) that parked calls queued at the
// endpoint still has tasks queued or running: they may park more, and waiting for them makes the
// stage's calls one file on a slow machine too. Runs no process drives (interrupted) hold nothing.
export async function parkingTasksLeft(db: DataSource, endpoint: string, runIds: readonly string[]) {
  if (runIds.length === 0) return false;
  const [row] = await db.query(
    `SELECT EXISTS (
       SELECT 1 FROM tasks t
       JOIN (SELECT DISTINCT p.run_id, p.stage FROM llm_batch_calls c
             JOIN llm_batch_waiters w ON w.cache_key = c.cache_key JOIN tasks p ON p.id = w.task_id
             WHERE c.endpoint = $1 AND c.status = 'queued' AND w.run_id = ANY($2::uuid[])) s
         ON s.run_id = t.run_id AND s.stage = t.stage
       WHERE t.status IN ('queued', 'running')) AS left`,
    [endpoint, [...runIds]],
  );
  return row.left === true;
}

// Endpoints (and the model each was parked for) with calls queued or in a batch.
export function endpointsWithWork(db: DataSource): Promise<{ endpoint: string; model: string }[]> {
  return db.query(
    `SELECT DISTINCT endpoint, model FROM llm_batch_calls WHERE status IN ('queued', 'submitted') ORDER BY 1, 2`,
  );
}

// A batch the provider was asked to cancel, with the status it answered.
export async function markCancelled(db: DataSource, batchId: string, status: string): Promise<void> {
  await db.query('UPDATE llm_batches SET status = $2 WHERE id = $1 AND ended_at IS NULL', [batchId, status]);
}
