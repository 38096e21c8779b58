import {
  type Bus,
  type ConsumerHandle,
  type Delivery,
  GiveUpError,
  isBusUnavailableError,
} from '@precis/bus';
import { decodeTask } from '@precis/contracts';
import { isDatabaseUnavailableError } from '@precis/db';
import { handleTask, markTaskDead } from '../handlers/handle-task.js';
import { SCORE_TASK_KIND } from '../handlers/score-run.handler.js';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';
import { taskIdOfMessage } from './reconciler.js';

export interface StageWorkerOptions {
  // Handlers running at once per stage in this process.
  concurrency?: number;
  ackWaitMs?: number;
  // Attempts (claims of the task, tasks.attempts) before a failing task is recorded as dead.
  // Deliveries that failed because the database or the bus was down are not attempts.
  maxDeliver?: number;
  // Delay before each redelivery after a failure (last value repeats).
  backoffMs?: number[];
  // Delay before each redelivery while the database or bus is unavailable (last value repeats).
  transientBackoffMs?: number[];
  // Tasks of kinds no loaded family (nor the engine) runs, e.g. a service kit handler's: handed
  // to this instead of the run runtime. Without it they fail as tasks of an unknown kind.
  onOtherMessage?: (delivery: Delivery) => Promise<void>;
}

/** The database or the bus was unavailable: the task was not really attempted. */
export function isInfrastructureError(err: unknown): boolean {
  return isDatabaseUnavailableError(err) || isBusUnavailableError(err);
}

// How often an outage is logged per stage: every delivery fails while it lasts.
const OUTAGE_LOG_EVERY_MS = 10_000;

// Whether a message's Task envelope names a kind the engine or a loaded family runs.
function isRunTask(ctx: RunContext, delivery: Delivery): boolean {
  if (!(delivery.data instanceof Uint8Array)) return false;
  try {
    const { kind } = decodeTask(delivery.data);
    return kind === SCORE_TASK_KIND || ctx.families.taskKind(kind) !== undefined;
  } catch {
    return false;
  }
}

async function taskAttempts(
  ctx: RunContext,
  taskId: string,
): Promise<{ attempts: number; open: boolean } | null> {
  const rows: { attempts: number; status: string }[] = await ctx.db.query(
    'SELECT attempts, status FROM tasks WHERE id = $1',
    [taskId],
  );
  const row = rows[0];
  if (!row) return null;
  return { attempts: Number(row.attempts), open: !['done', 'failed', 'dead'].includes(row.status) };
}

async function giveUp(ctx: RunContext, taskId: string, reason: string, cause?: unknown): Promise<never> {
  await markTaskDead(ctx, taskId, reason);
  throw new GiveUpError(reason, { cause });
}

// Consumes a stage's queue: each delivery runs handleTask (which persists before resolving), so
// the bus acks only after the result is stored. Attempts are counted by the task's claims in the
// database, not by bus deliveries: while the database or the bus is down, deliveries are naked
// with backoff and count for nothing. A task that failed its last attempt is recorded as dead
// (and dead-lettered), so the run can still finish and report it.
export async function startStageWorker(
  ctx: RunContext,
  bus: Bus,
  stage: RunStage,
  opts: StageWorkerOptions = {},
): Promise<ConsumerHandle> {
  const maxAttempts = opts.maxDeliver ?? 5;
  let lastOutageLog = 0;
  const handle = async (delivery: Delivery) => {
    if (opts.onOtherMessage && !isRunTask(ctx, delivery)) return opts.onOtherMessage(delivery);
    const taskId = taskIdOfMessage(delivery.id);
    // Redelivered more often than attempts allow: earlier claims may have ended without an
    // outcome (worker killed or hung past ack-wait). Those claims counted; stop at the limit.
    if (delivery.deliveryCount > maxAttempts) {
      const seen = await taskAttempts(ctx, taskId);
      if (seen?.open && seen.attempts >= maxAttempts)
        await giveUp(ctx, taskId, `gave up after ${seen.attempts} attempts that never finished`);
    }
    try {
      await handleTask(ctx, taskId);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const fields = { stage, taskId, runId: delivery.runId, error: message };
      if (isInfrastructureError(err)) {
        if (Date.now() - lastOutageLog >= OUTAGE_LOG_EVERY_MS) {
          lastOutageLog = Date.now();
          ctx.logger.warn('database or bus unavailable: tasks wait for it (not counted as attempts)', fields);
        }
        throw err;
      }
      const attempts = (await taskAttempts(ctx, taskId))?.attempts ?? 0;
      ctx.logger.error('task failed', { ...fields, attempt: attempts });
      if (attempts >= maxAttempts)
        await giveUp(ctx, taskId, `gave up after ${attempts} attempts: ${message}`, err);
      throw err;
    }
  };
  await bus.ensureQueue(stage);
  return bus.consume(stage, handle, {
    maxInFlight: opts.concurrency ?? 8,
    ackWaitMs: opts.ackWaitMs ?? 60_000,
    maxDeliver: Number.POSITIVE_INFINITY,
    isTransient: isInfrastructureError,
    backoffMs: opts.backoffMs,
    transientBackoffMs: opts.transientBackoffMs,
  });
}
