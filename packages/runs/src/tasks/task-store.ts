import { TaskEntity, type TaskStatus } from '@precis/db';
import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { RunStage } from '../ports.js';
import type { TaskPayload } from './task-payloads.js';

export const FINISHED: readonly TaskStatus[] = ['done', 'failed', 'dead'];

export interface NewTask {
  id: string;
  runId: string;
  stage: RunStage;
  kind: TaskPayload['type'];
  payload: TaskPayload;
}

// Inserts tasks that do not exist yet; returns the ids actually inserted (ON CONFLICT DO NOTHING).
export async function insertTasks(db: DataSource | EntityManager, tasks: NewTask[]): Promise<string[]> {
  const inserted: string[] = [];
  for (let i = 0; i < tasks.length; i += 200) {
    const batch = tasks.slice(i, i + 200);
    const res = await db
      .createQueryBuilder()
      .insert()
      .into(TaskEntity)
      .values(
        batch.map((t) => ({
          id: t.id,
          runId: t.runId,
          stage: t.stage,
          kind: t.kind,
          status: 'queued' as TaskStatus,
          payload: t.payload as unknown as Record<string, unknown>,
        })) as QueryDeepPartialEntity<TaskEntity>[],
      )
      .orIgnore()
      .returning(['id'])
      .execute();
    for (const row of res.raw as { id: string }[]) inserted.push(row.id);
  }
  return inserted;
}

export async function loadRunTasks(db: DataSource, runId: string): Promise<TaskEntity[]> {
  return db.getRepository(TaskEntity).find({ where: { runId }, order: { id: 'ASC' } });
}

// Marks a task as being worked on; null when it has already finished (a redelivery).
export async function claimTask(db: DataSource, id: string): Promise<TaskEntity | null> {
  const res = await db.query(
    `UPDATE tasks SET status = 'running', attempts = attempts + 1, updated_at = now()
     WHERE id = $1 AND status NOT IN ('done', 'failed', 'dead') RETURNING id`,
    [id],
  );
  const rows = Array.isArray(res[0]) ? res[0] : res;
  if (!rows.length) return null;
  return db.getRepository(TaskEntity).findOneBy({ id });
}

// Records a final state once: a second completion of the same task changes nothing.
export async function finishTask(
  db: EntityManager,
  id: string,
  status: 'done' | 'failed' | 'dead',
  result: Record<string, unknown> | null,
  error: string | null,
): Promise<boolean> {
  const res = await db.query(
    `UPDATE tasks SET status = $2, result = $3, error = $4, finished_at = now(), updated_at = now()
     WHERE id = $1 AND status NOT IN ('done', 'failed', 'dead') RETURNING id`,
    [id, status, result === null ? null : JSON.stringify(result), error],
  );
  const rows = Array.isArray(res[0]) ? res[0] : res;
  return rows.length > 0;
}
