import { batcherFor, inDistinctRounds, type TurnBatcher } from '@precis/db/group-commit';
import { FINISHED_SQL } from '@precis/engine';
import type { DataSource } from 'typeorm';

export interface DimensionJudgmentWrite {
  taskId: string;
  status: 'done' | 'failed';
  result: Record<string, unknown>;
  error: string | null;
  runId: string;
  summaryId: string;
  documentId: string;
  system: string;
  judgmentId: string;
  metricValueId: string;
  // 'dimension:<canonical id>' (what packages/meta reads).
  metric: string;
  value: number | null;
  details: Record<string, unknown>;
  judge: string;
  template: string;
  producedBy: string;
}

const finishBatchers = new WeakMap<DataSource, TurnBatcher<DimensionJudgmentWrite, boolean>>();

// Finishes a judge task and writes its judgment and its metric_values row atomically; the rows
// are written only when this call is the one that finished the task (true). Concurrent finishes
// in one event-loop turn share one statement (group commit); each resolves once it is written.
export function finishDimensionJudgment(db: DataSource, w: DimensionJudgmentWrite): Promise<boolean> {
  return batcherFor(finishBatchers, db, (ws: DimensionJudgmentWrite[]) => finishMany(db, ws)).submit(w);
}

// One statement for writes whose tasks, judgments and metric values are all distinct; a write
// that repeats one of those ids (a duplicate delivery) goes into a later statement.
function finishMany(db: DataSource, writes: DimensionJudgmentWrite[]): Promise<boolean[]> {
  return inDistinctRounds(
    writes,
    (w) => [`t:${w.taskId}`, `j:${w.judgmentId}`, `m:${w.metricValueId}`],
    (ws) => finishDistinct(db, ws),
  );
}

async function finishDistinct(db: DataSource, writes: DimensionJudgmentWrite[]): Promise<boolean[]> {
  const rows: { id: string }[] = await db.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(
         task_id text, status text, result jsonb, error text, judgment_id text, run_id uuid,
         summary_id text, system text, metric text, verdict_status text, judge text, template text,
         metric_value_id text, document_id uuid, value double precision, details jsonb, produced_by text)
     ), done AS (
       UPDATE tasks AS t SET status = i.status, result = i.result, error = i.error, finished_at = now(), updated_at = now()
       FROM input AS i
       WHERE t.id = i.task_id AND t.status NOT IN ${FINISHED_SQL}
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
    ],
  );
  const finished = new Set(rows.map((r) => r.id));
  return writes.map((w) => finished.has(w.taskId));
}
