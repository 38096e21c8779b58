import type { TaskEntity } from '@precis/db';
import { FINISHED_SQL, heldLedgerCte, idsIn } from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import type { HeldWrite } from './dimensions/finish-judgment.js';

// The opinion family's reads and writes of its dimension judges' tasks, judgments and values
// (the engine's stores hold the rest).

export interface DimensionValueRow {
  system: string;
  document_id: string;
  metric: string;
  value: number | string | null;
}

// Every per-summary dimension value of the run ('dimension:<id>'), by system, document, metric.
export async function dimensionValueRows(db: DataSource, runId: string): Promise<DimensionValueRow[]> {
  return db.query(
    `SELECT system, document_id, metric, value FROM metric_values
      WHERE run_id = $1 AND document_id IS NOT NULL AND metric LIKE 'dimension:%'
      ORDER BY system, document_id, metric`,
    [runId],
  );
}

// The run's G-Eval steps tasks (one per dimension), by id, with their status.
export async function gevalStepStatusRows(
  db: DataSource,
  runId: string,
): Promise<{ id: string; status: string }[]> {
  return db.query(`SELECT id, status FROM tasks WHERE run_id = $1 AND kind = 'geval-steps' ORDER BY id`, [
    runId,
  ]);
}

// The run's G-Eval steps tasks, by id, with their status and result (id, status, result only).
export async function gevalStepTasks(db: DataSource, runId: string): Promise<TaskEntity[]> {
  return db.query(
    `SELECT id, status, result FROM tasks WHERE run_id = $1 AND kind = 'geval-steps' ORDER BY id`,
    [runId],
  );
}

// Finishes judge tasks and writes their judgments and metric values in one statement, for writes
// whose tasks, judgments and metric values are all distinct; true for each task this finished.
// The ledger records the tasks hold are written by the same statement.
export async function finishDimensionJudgments(db: DataSource, writes: HeldWrite[]): Promise<boolean[]> {
  const ledger = heldLedgerCte(
    writes.flatMap((w) => w.ledger),
    3,
  );
  const rows: { id: string }[] = await db.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(
         task_id text, status text, result jsonb, error text, judgment_id text, run_id uuid,
         summary_id text, system text, metric text, verdict_status text, judge text, template text,
         metric_value_id text, document_id uuid, value double precision, details jsonb, produced_by text)
     ), ${ledger.cte}done AS (
       UPDATE tasks AS t SET status = i.status, result = i.result, error = i.error, finished_at = now(), updated_at = now()
       FROM input AS i
       WHERE t.id = ${idsIn(1)} AND t.id = i.task_id AND t.status NOT IN ${FINISHED_SQL}
       RETURNING t.id
     ), judged AS (
       INSERT INTO judgments (id, run_id, summary_id, system, metric, unit, status, verdict, judge, template_version, task_id)
       SELECT i.judgment_id, i.run_id, i.summary_id, i.system, i.metric, 0, i.verdict_status, i.result, i.judge, i.template, i.task_id
         FROM input AS i JOIN done AS d ON d.id = i.task_id
       ON CONFLICT (id) DO NOTHING
     ), valued AS (
       INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
       SELECT i.metric_value_id, i.run_id, i.system, i.document_id, i.metric, i.value, i.details, i.produced_by
         FROM input AS i JOIN done AS d ON d.id = i.task_id
       ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value, details = EXCLUDED.details, produced_by = EXCLUDED.produced_by
     )
     -- Data-modifying CTEs always run to completion, read or not.
     SELECT id FROM done`,
    [
      writes.map((w) => w.taskId),
      JSON.stringify(
        writes.map((w) => ({
          task_id: w.taskId,
          status: w.status,
          result: w.result,
          error: w.error,
          judgment_id: w.judgmentId,
          run_id: w.runId,
          summary_id: w.summaryId,
          system: w.system,
          metric: w.metric,
          verdict_status: w.status === 'done' ? 'ok' : 'failed',
          judge: w.judge,
          template: w.template,
          metric_value_id: w.metricValueId,
          document_id: w.documentId,
          value: w.value,
          details: w.details,
          produced_by: w.producedBy,
        })),
      ),
      ...ledger.params,
    ],
  );
  const finished = new Set(rows.map((r) => r.id));
  return writes.map((w) => finished.has(w.taskId));
}
