import { preparedQuery } from '@precis/db';
import type { DataSource, EntityManager } from 'typeorm';
import { scoreTaskId } from '../ids.js';
import type { RunHeadline } from '../queries/run-list.js';
import { FINISHED_SQL } from '../tasks/task-store.js';

// Reads and writes of the tasks table outside the claim/finish protocol (tasks/task-store.ts):
// statuses, errors, results and the open tasks of a run or stage.

export interface TaskResultRow {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
}

// A task's status; null when there is no such task.
export async function taskStatus(db: DataSource, id: string): Promise<string | null> {
  const rows: { status: string }[] = await db.query('SELECT status FROM tasks WHERE id = $1', [id]);
  return rows[0]?.status ?? null;
}

// A task's deliveries so far and its status; null when there is no such task.
export async function taskAttempts(
  db: DataSource,
  id: string,
): Promise<{ attempts: number; status: string } | null> {
  const rows: { attempts: number; status: string }[] = await db.query(
    'SELECT attempts, status FROM tasks WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

// A task's error (null when it has none); undefined when there is no such task.
export async function taskError(db: DataSource, id: string): Promise<{ error: string | null } | undefined> {
  const rows: { error: string | null }[] = await db.query('SELECT error FROM tasks WHERE id = $1', [id]);
  return rows[0];
}

// A task's stored result (e.g. a run's score task's leaderboard rows); null when it has none.
export async function taskResult<T = Record<string, unknown>>(db: DataSource, id: string): Promise<T | null> {
  const rows = await preparedQuery<{ result: T | null }>(db, 'SELECT result FROM tasks WHERE id = $1', [id]);
  return rows[0]?.result ?? null;
}

// The stored results of the given tasks, in one read: a task without one (or no such task) is
// absent from the map.
export async function taskResults<T = Record<string, unknown>>(
  db: DataSource,
  ids: readonly string[],
): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  const rows: { id: string; result: T }[] = await db.query(
    'SELECT id, result FROM tasks WHERE id = ANY($1::text[]) AND result IS NOT NULL',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r.result]));
}

// A run's tasks of the given kinds by id, with their status and result: what a family's scorer
// reads its steps' and judges' outcomes from.
export async function taskResultsByKind(
  db: DataSource,
  runId: string,
  kinds: readonly string[],
): Promise<Map<string, TaskResultRow>> {
  const rows: TaskResultRow[] = await db.query(
    'SELECT id, status, result FROM tasks WHERE run_id = $1 AND kind = ANY($2::text[])',
    [runId, [...kinds]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

// The run's earliest failed (or dead) task; undefined when none failed.
export async function firstFailedTask(
  db: DataSource,
  runId: string,
): Promise<{ id: string; error: string | null } | undefined> {
  const rows: { id: string; error: string | null }[] = await db.query(
    `SELECT id, error FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead')
       ORDER BY finished_at, id LIMIT 1`,
    [runId],
  );
  return rows[0];
}

// The run's unfinished tasks, by id.
export async function openRunTasks(
  db: DataSource,
  runId: string,
): Promise<{ id: string; stage: string; kind: string }[]> {
  return db.query(
    `SELECT id, stage, kind FROM tasks WHERE run_id = $1 AND status NOT IN ${FINISHED_SQL} ORDER BY id`,
    [runId],
  );
}

// The unfinished tasks of one stage of the given runs, by id.
export async function openStageTasks(
  db: DataSource,
  runIds: readonly string[],
  stage: string,
): Promise<{ id: string; run_id: string; kind: string }[]> {
  return db.query(
    `SELECT id, run_id, kind FROM tasks
       WHERE run_id = ANY($1::uuid[]) AND stage = $2 AND status NOT IN ${FINISHED_SQL} AND status <> 'waiting'
       ORDER BY id`,
    [runIds, stage],
  );
}

// Ends the run's unfinished tasks as cancelled, with `error` saying why.
export async function cancelOpenTasks(
  db: DataSource | EntityManager,
  runId: string,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE tasks SET status = 'cancelled', error = $2, finished_at = now(), updated_at = now()
     WHERE run_id = $1 AND status NOT IN ${FINISHED_SQL}`,
    [runId, error],
  );
}

export interface UnitTaskRow<R> {
  id: string;
  unit: string;
  status: string;
  error: string | null;
  result: R | null;
}

// The retrieve and summarize tasks of the given units (all of the run's when null), by id; a
// result only for a task that is done.
export async function unitTaskRows<R>(
  db: DataSource,
  runId: string,
  keys: readonly string[] | null,
): Promise<UnitTaskRow<R>[]> {
  return db.query(
    `SELECT id, unit, status, error, CASE WHEN status = 'done' THEN result END AS result FROM tasks
       WHERE run_id = $1 AND ${keys ? 'unit = ANY($2::text[])' : `stage IN ('retrieve', 'summarize')`} AND unit IS NOT NULL
       ORDER BY id`,
    keys ? [runId, keys] : [runId],
  );
}

// Of the given units: how many finished step `after`, and how many failed.
export async function unitStepCounts(
  db: DataSource,
  runId: string,
  units: readonly string[],
  after: string,
): Promise<{ done: string | number; failed: string | number }> {
  const [row]: { done: string | number; failed: string | number }[] = await db.query(
    `SELECT (SELECT COUNT(*) FROM tasks WHERE run_id = $1 AND unit = ANY($2::text[])
                  AND status = 'done' AND substr(id, length(id) - length($3)) = ':' || $3) AS done,
              (SELECT COUNT(*) FROM run_unit_failures WHERE run_id = $1 AND unit = ANY($2::text[])) AS failed`,
    [runId, units, after],
  );
  return row!;
}

// Kept beside the score task's result once the run is scored, so a list reads it without
// loading each run's report.
export async function storeRunHeadline(db: DataSource, runId: string, headline: RunHeadline | null) {
  await db.query(
    `UPDATE tasks SET result = jsonb_set(COALESCE(result, '{}'::jsonb), '{headline}', $2::jsonb)
     WHERE id = $1 AND status = 'done'`,
    [scoreTaskId(runId), JSON.stringify(headline)],
  );
}

// The headlines stored with the runs' score tasks (runs not scored yet have none).
export async function storedHeadlines(
  db: DataSource,
  runIds: readonly string[],
): Promise<Map<string, RunHeadline>> {
  const rows: { run_id: string; headline: RunHeadline | null }[] = await db.query(
    `SELECT run_id, result->'headline' AS headline FROM tasks
     WHERE id = ANY($1::text[]) AND status = 'done'`,
    [runIds.map(scoreTaskId)],
  );
  return new Map(rows.flatMap((r) => (r.headline ? [[r.run_id, r.headline] as const] : [])));
}

// What each failed or dead judge-dimension task of a run judged (from its payload), by task id.
export async function failedJudgeDimensionTasks(
  db: DataSource,
  runId: string,
): Promise<{ system: string; document_id: string; dimension: string }[]> {
  return db.query(
    `SELECT payload->>'system' AS system, payload->>'documentId' AS document_id, payload->>'dimension' AS dimension
       FROM tasks WHERE run_id = $1 AND kind = 'judge-dimension' AND status IN ('failed', 'dead') ORDER BY id`,
    [runId],
  );
}
