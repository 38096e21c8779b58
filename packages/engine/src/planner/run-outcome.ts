import { JudgmentEntity, OPEN_RUN_STATUSES, RunEntity, type RunStatus } from '@precis/db';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { PreconditionError } from '../errors/domain-errors.js';
import { detachRunLedger } from '../stores/ledger.store.js';
import { setRunStatus } from './run-progress.js';

// `precis run`'s exit code for each way a run can end (documented in the README).
export const RUN_EXIT_CODES: Readonly<Record<RunStatus, number>> = {
  completed: 0,
  // Still open: the command stopped following it without an outcome.
  pending: 1,
  running: 1,
  'completed-with-failures': 3,
  failed: 4,
  stopped: 5,
  cancelled: 6,
  interrupted: 130,
};

export function exitCodeOf(status: RunStatus): number {
  return RUN_EXIT_CODES[status];
}

// The run's status does not allow the change (cancel a finished run, delete an open one).
export class RunStateError extends PreconditionError {}

// Cancels an open run: its tasks are no longer claimed by any worker, and it cannot be resumed.
export async function cancelRun(db: DataSource, runId: string, reason: string): Promise<RunEntity> {
  const now = await setRunStatus(db, runId, 'cancelled', reason);
  if (!now.applied)
    throw new RunStateError(
      `run ${runId} is already ${now.status}; only a pending, running or interrupted run can be cancelled`,
    );
  return db.getRepository(RunEntity).findOneByOrFail({ id: runId });
}

// Deletes a run and everything it produced (tasks, summaries, judgments, scores). Its ledger rows
// are kept without a run: they are the response cache (shared by content) and real spending.
// An open run must be cancelled first.
export async function deleteRun(db: DataSource, runId: string): Promise<void> {
  await db.transaction(async (m) => {
    const run = await m.getRepository(RunEntity).findOneBy({ id: runId });
    if (!run) throw new RunStateError(`no run ${runId}`);
    if (OPEN_RUN_STATUSES.includes(run.status) && run.status !== 'interrupted')
      throw new RunStateError(
        `run ${runId} is ${run.status}; cancel it first (\`precis runs cancel ${runId}\`)`,
      );
    await detachRunLedger(m, runId);
    await m.getRepository(RunEntity).delete({ id: runId });
    // After the run's tasks (cascaded, waiting for any finish under way): a judgment comes only
    // with its task's finish, so none is written once this commits. Judgments have no key to runs.
    await m.getRepository(JudgmentEntity).delete({ runId });
  });
}

// The embedded database is open in one process at a time: a run it still shows as pending or
// running has no process driving it any more (its process was killed), so it is interrupted.
export async function markOrphanedRunsInterrupted(db: DataSource): Promise<number> {
  const res = await db.getRepository(RunEntity).update(
    { status: In(['pending', 'running']) },
    {
      status: 'interrupted',
      error: 'its process stopped before it finished; run the same spec again to resume it',
    },
  );
  return res.affected ?? 0;
}
