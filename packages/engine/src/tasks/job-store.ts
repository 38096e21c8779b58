import type { TaskStatus } from '@precis/db';
import type { DataSource, EntityManager } from 'typeorm';
import { FINISHED_SQL } from './task-store.js';

// Tasks outside any run's plan (e.g. a dataset import): the producer records the row (or the
// worker records it from the envelope), the stage worker claims, runs and finishes it.
export type FinalStatus = 'done' | 'failed' | 'dead';

export interface TaskRow {
  id: string;
  runId: string | null;
  stage: string;
  kind: string;
  status: TaskStatus;
  attempts: number;
  payload: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface NewTaskRecord {
  id: string;
  runId: string | null;
  stage: string;
  kind: string;
  payload: Record<string, unknown>;
}

type Db = DataSource | EntityManager;

// TypeORM returns [rows, affected] for UPDATE ... RETURNING on pg, plain rows for SELECT.
function rowsOf(res: unknown): Record<string, unknown>[] {
  if (Array.isArray(res) && Array.isArray(res[0])) return res[0] as Record<string, unknown>[];
  return Array.isArray(res) ? (res as Record<string, unknown>[]) : [];
}

function toRow(r: Record<string, unknown>): TaskRow {
  return {
    id: String(r.id),
    runId: r.run_id === null || r.run_id === undefined ? null : String(r.run_id),
    stage: String(r.stage),
    kind: String(r.kind),
    status: r.status as TaskStatus,
    attempts: Number(r.attempts),
    payload: (r.payload as Record<string, unknown> | null) ?? {},
    result: (r.result as Record<string, unknown> | null) ?? null,
    error: (r.error as string | null) ?? null,
  };
}

const COLUMNS = 'id, run_id, stage, kind, status, attempts, payload, result, error';
// Run ids are compared as uuids (the primary-key index), and anything else matches no run.
const UUID_RE = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

// Inserts the task unless it exists (keyed by task id). The run link is kept only when the run
// exists, so a task from an unknown run is still recorded (its run id stays in the envelope).
export async function recordTask(db: Db, task: NewTaskRecord): Promise<void> {
  await db.query(
    `INSERT INTO tasks (id, run_id, stage, kind, status, payload)
     VALUES ($1, (SELECT r.id FROM runs r WHERE r.id = CAST(CASE WHEN $2 ~ '${UUID_RE}' THEN $2 END AS uuid)),
             $3, $4, 'queued', $5::jsonb)
     ON CONFLICT (id) DO NOTHING`,
    [task.id, task.runId ?? '', task.stage, task.kind, JSON.stringify(task.payload)],
  );
}

export async function loadTask(db: Db, id: string): Promise<TaskRow | null> {
  const rows = rowsOf(await db.query(`SELECT ${COLUMNS} FROM tasks WHERE id = $1`, [id]));
  return rows[0] ? toRow(rows[0]) : null;
}

// Marks the task as being worked on; null when it already reached a final state (a redelivery).
export async function claimJob(db: Db, id: string): Promise<TaskRow | null> {
  const rows = rowsOf(
    await db.query(
      `UPDATE tasks SET status = 'running', attempts = attempts + 1, updated_at = now()
       WHERE id = $1 AND status NOT IN ${FINISHED_SQL} RETURNING ${COLUMNS}`,
      [id],
    ),
  );
  return rows[0] ? toRow(rows[0]) : null;
}

// A transient failure: back to queued (the bus redelivers), keeping the last error visible.
export async function requeueTask(db: Db, id: string, error: string): Promise<void> {
  await db.query(
    `UPDATE tasks SET status = 'queued', error = $2, updated_at = now() WHERE id = $1 AND status = 'running'`,
    [id, error],
  );
}

// An attempt cut short by an outage (database or bus): back to queued and not counted. Best
// effort: when the database itself is down this fails and the claim stays counted.
export async function releaseClaim(db: Db, id: string): Promise<void> {
  await db.query(
    `UPDATE tasks SET status = 'queued', attempts = GREATEST(attempts - 1, 0), updated_at = now()
     WHERE id = $1 AND status = 'running'`,
    [id],
  );
}
