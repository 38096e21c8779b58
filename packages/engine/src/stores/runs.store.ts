import { preparedQuery, type RunStatus } from '@precis/db';
import type { DataSource, EntityManager } from 'typeorm';

// Reads and writes of the runs table and of the runs' counters (run_counters, kept by triggers as
// tasks, summaries and unit failures are written; migration RunCounters). A counter is split over
// shards (migration ShardedRunCounters): every read sums them.

const SUMS = 'SUM(total) AS total, SUM(done) AS done, SUM(failed) AS failed, SUM(cancelled) AS cancelled';

export interface CounterRow {
  key: string;
  total: unknown;
  done: unknown;
  failed: unknown;
  cancelled: unknown;
}

// The ids of the (at most two, newest first) runs whose id starts as `prefix` (lower case).
export async function runIdsByPrefix(db: DataSource, prefix: string): Promise<{ id: string }[]> {
  return db.query('SELECT id FROM runs WHERE id::text LIKE $1 ORDER BY created_at DESC LIMIT 2', [
    `${prefix}%`,
  ]);
}

// Sets how many summaries (units and source summaries) the run expects.
export async function setExpectedSummaries(db: DataSource, runId: string, total: number): Promise<void> {
  await db.query(
    `INSERT INTO run_counters (run_id, key, shard, total) VALUES ($1, 'summaries', 0, $2)
       ON CONFLICT (run_id, key, shard) DO UPDATE SET total = EXCLUDED.total`,
    [runId, total],
  );
}

// A run's counters, by key (one indexed read, whatever the size of the run).
export async function runCounterRows(db: DataSource, runId: string): Promise<CounterRow[]> {
  return db.query(`SELECT key, ${SUMS} FROM run_counters WHERE run_id = $1 GROUP BY key ORDER BY key`, [
    runId,
  ]);
}

// A run's status and error with its counters by key, read in one statement (one snapshot: a run
// that ended shows the tasks it cancelled); no rows when there is no such run.
export async function runStateRows(
  db: DataSource,
  runId: string,
): Promise<(CounterRow & { status: RunStatus; error: string | null })[]> {
  return preparedQuery(
    db,
    `SELECT r.status, r.error, c.key, ${SUMS} FROM runs AS r LEFT JOIN run_counters AS c ON c.run_id = r.id
       WHERE r.id = $1 GROUP BY r.status, r.error, c.key ORDER BY c.key`,
    [runId],
  );
}

// The task counters (per stage) of several runs, by run and key.
export async function runsStageCounterRows(
  db: DataSource,
  runIds: readonly string[],
): Promise<(CounterRow & { run_id: string })[]> {
  return db.query(
    `SELECT run_id, key, ${SUMS} FROM run_counters
       WHERE run_id = ANY($1::uuid[]) AND key <> 'summaries' GROUP BY run_id, key ORDER BY run_id, key`,
    [runIds],
  );
}

// The open tasks of several runs, per stage.
export async function openTasksPerStage(
  db: DataSource,
  runIds: readonly string[],
): Promise<{ key: string; open: unknown }[]> {
  return db.query(
    `SELECT key, SUM(total - done - failed - cancelled) AS open FROM run_counters
       WHERE run_id = ANY($1::uuid[]) AND key <> 'summaries' GROUP BY key ORDER BY key`,
    [runIds],
  );
}

// The newest run whose id or name is `run` ([] when none).
export async function latestRunByIdOrName(db: DataSource, run: string): Promise<{ id: string }[]> {
  return db.query(`SELECT id FROM runs WHERE id::text = $1 OR name = $1 ORDER BY created_at DESC LIMIT 1`, [
    run,
  ]);
}

// Sets a run's cost limit (a decimal kept exact as text).
export async function setRunCostLimit(
  db: DataSource | EntityManager,
  runId: string,
  costLimit: unknown,
): Promise<void> {
  await db.query('UPDATE runs SET cost_limit_usd = $2::numeric WHERE id = $1', [runId, costLimit]);
}
