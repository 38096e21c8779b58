import type { DataSource } from 'typeorm';

// The provider batches a run's calls went into: those that answered its ledger rows, and those its
// waiting calls are in now; and its gathering calls and waiting tasks.
export async function runBatchRows(db: DataSource, runId: string) {
  const rows: Record<string, string | number | boolean | null>[] = await db.query(
    `WITH ids AS (
       SELECT DISTINCT batch_id FROM llm_calls WHERE run_id = $1 AND batch_id IS NOT NULL
       UNION
       SELECT DISTINCT c.batch_id FROM llm_batch_waiters w JOIN llm_batch_calls c ON c.cache_key = w.cache_key
       WHERE w.run_id = $1 AND c.batch_id IS NOT NULL
     )
     SELECT b.id, b.provider_batch_id, b.status, b.requests, b.completed, b.failed, b.ended_at IS NOT NULL AS ended,
            extract(epoch FROM coalesce(b.ended_at, now()) - b.created_at) AS age
     FROM llm_batches b JOIN ids ON ids.batch_id = b.id ORDER BY b.created_at, b.id`,
    [runId],
  );
  const [counts]: { queued: number; waiting: number }[] = await db.query(
    `SELECT (SELECT count(*) FROM llm_batch_waiters w JOIN llm_batch_calls c ON c.cache_key = w.cache_key
             WHERE w.run_id = $1 AND c.status = 'queued')::int AS queued,
            (SELECT count(*) FROM tasks WHERE run_id = $1 AND status = 'waiting')::int AS waiting`,
    [runId],
  );
  return { rows, counts: counts! };
}
