import type { DataSource } from 'typeorm';
import { unitKey } from '../ids.js';
import { unitStepCounts } from '../stores/tasks.store.js';
import type { NewTask } from '../tasks/task-store.js';

export interface AwaitingUnit {
  system: string;
  after: string;
  task: NewTask;
}

// The system-wide tasks that may start: every document's unit of the system finished step
// `after` or failed. One check per task a planning round saw awaited (it reads the system's units
// by the (run_id, unit) index); a last unit that fails instead is caught by the stall check.
export async function readySystemTasks(
  db: DataSource,
  runId: string,
  documentIds: readonly string[],
  awaiting: readonly AwaitingUnit[],
): Promise<NewTask[]> {
  const ready: NewTask[] = [];
  const checked = new Set<string>();
  for (const a of awaiting) {
    if (checked.has(a.task.id)) continue;
    checked.add(a.task.id);
    const units = documentIds.map((d) => unitKey(a.system, d));
    const row = await unitStepCounts(db, runId, units, a.after);
    if (Number(row.done) + Number(row.failed) >= documentIds.length) ready.push(a.task);
  }
  return ready;
}
