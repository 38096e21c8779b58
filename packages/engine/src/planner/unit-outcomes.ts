import type { DataSource } from 'typeorm';
import type { UnitPlan } from './plan-unit.js';

// Writes what units settled to: their summaries, and the units that failed (once each; a trigger
// counts both). Idempotent: a unit planned twice writes nothing the second time.
export async function writeUnitOutcomes(
  db: DataSource,
  runId: string,
  plans: readonly { key: string; plan: UnitPlan }[],
): Promise<void> {
  const summaries = plans.flatMap(({ plan }) => (plan.kind === 'summary' ? [plan.summary] : []));
  const failures = plans.flatMap(({ key, plan }) =>
    plan.kind === 'failed' ? [{ unit: key, task_id: plan.taskId, error: plan.error }] : [],
  );
  for (let i = 0; i < summaries.length; i += 500) {
    await db.query(
      `INSERT INTO summaries (id, run_id, system, document_id, text, final_step, producer)
       SELECT s.id, s.run_id, s.system, s.document_id, s.text, s.final_step, s.producer
       FROM jsonb_to_recordset($1::jsonb) AS s(id text, run_id uuid, system text, document_id uuid,
                                               text text, final_step text, producer text)
       ON CONFLICT (id) DO NOTHING`,
      [
        JSON.stringify(
          summaries.slice(i, i + 500).map((s) => ({
            id: s.id,
            run_id: s.runId,
            system: s.system,
            document_id: s.documentId,
            text: s.text,
            final_step: s.finalStep,
            producer: s.producer,
          })),
        ),
      ],
    );
  }
  if (failures.length)
    await db.query(
      `INSERT INTO run_unit_failures (run_id, unit, task_id, error)
       SELECT $1, f.unit, f.task_id, f.error FROM jsonb_to_recordset($2::jsonb) AS f(unit text, task_id text, error text)
       ON CONFLICT (run_id, unit) DO NOTHING`,
      [runId, JSON.stringify(failures)],
    );
}
