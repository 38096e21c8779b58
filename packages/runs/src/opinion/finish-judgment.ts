import { SummaryEntity } from '@precis/db';
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

// Finishes a judge task, writes its judgment and its metric_values row in ONE statement (atomic,
// one round trip): the rows are written only when this call is the one that finished the task.
export async function finishDimensionJudgment(db: DataSource, w: DimensionJudgmentWrite): Promise<boolean> {
  const res: { finished: boolean }[] = await db.query(
    `WITH done AS (
       UPDATE tasks SET status = $2, result = $3, error = $4, finished_at = now(), updated_at = now()
       WHERE id = $1 AND status NOT IN ('done', 'failed', 'dead') RETURNING id
     ), judged AS (
       INSERT INTO judgments (id, run_id, summary_id, system, metric, unit, status, verdict, judge, template_version, task_id)
       SELECT $5, $6::uuid, $7, $8, $9, 0, $10, $3::jsonb, $11, $12, $1 WHERE EXISTS (SELECT 1 FROM done)
       ON CONFLICT (id) DO NOTHING
       RETURNING 1
     ), valued AS (
       INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
       SELECT $13, $6::uuid, $8, $14::uuid, $9, $15::double precision, $16::jsonb, $17 WHERE EXISTS (SELECT 1 FROM done)
       ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value, details = EXCLUDED.details, produced_by = EXCLUDED.produced_by
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM done) AS finished, (SELECT COUNT(*) FROM judged) + (SELECT COUNT(*) FROM valued) AS written`,
    [
      w.taskId,
      w.status,
      JSON.stringify(w.result),
      w.error,
      w.judgmentId,
      w.runId,
      w.summaryId,
      w.system,
      w.metric,
      w.status === 'done' ? 'ok' : 'failed',
      w.judge,
      w.template,
      w.metricValueId,
      w.documentId,
      w.value,
      JSON.stringify(w.details),
      w.producedBy,
    ],
  );
  return res[0]?.finished === true;
}

// A run's summaries never change once written: their texts are memoized (bounded) so the
// (summary, dimension) tasks of one summary read it once.
const texts = new Map<string, string>();
const MAX_TEXTS = 4096;

export async function summaryText(db: DataSource, summaryId: string): Promise<string | null> {
  const hit = texts.get(summaryId);
  if (hit !== undefined) return hit;
  const row = await db
    .getRepository(SummaryEntity)
    .findOne({ select: { text: true }, where: { id: summaryId } });
  if (!row) return null;
  if (texts.size >= MAX_TEXTS) texts.delete(texts.keys().next().value!);
  texts.set(summaryId, row.text);
  return row.text;
}
