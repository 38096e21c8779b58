import type { DataSource } from 'typeorm';

// Failed work of a run (failed or dead tasks, tasks with a failed judgment) whose model replies came
// from the response cache: the cache answers the same bad reply until a run without it asks again.
export async function countCachedFailures(db: DataSource, runId: string): Promise<number> {
  const rows = (await db.query(
    `WITH failed AS (
       SELECT id AS task_id FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead')
       UNION
       SELECT task_id FROM judgments WHERE run_id = $1 AND status = 'failed'
     )
     SELECT count(*)::int AS n FROM failed f
      WHERE EXISTS (SELECT 1 FROM llm_calls c WHERE c.run_id = $1 AND c.task_id = f.task_id AND c.cache_hit)`,
    [runId],
  )) as { n: number | string }[];
  return Number(rows[0]?.n ?? 0);
}

// Only runs that ended with failures are worth the query.
export function endedWithFailures(status: string): boolean {
  return status === 'completed-with-failures' || status === 'failed';
}
