import type { DataSource } from 'typeorm';
import { insertSummaries, insertUnitFailures } from '../stores/summaries.store.js';
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
  for (let i = 0; i < summaries.length; i += 500) await insertSummaries(db, summaries.slice(i, i + 500));
  if (failures.length) await insertUnitFailures(db, runId, failures);
}
