import { performance } from 'node:perf_hooks';
import { GiveUpError } from '@precis/bus';
import { JSON_MEDIA_TYPE, type Task } from '@precis/contracts';
import type { RunContext } from '../planner/run-context.js';
import type { FinalTaskStatus } from '../ports.js';
import {
  claimJob,
  loadTask,
  recordTask,
  releaseClaim,
  requeueTask,
  type TaskRow,
} from '../tasks/job-store.js';
import { PermanentTaskError } from '../tasks/task-errors.js';
import { finishTask } from '../tasks/task-store.js';

export interface JobContext {
  taskId: string;
  // The task row's payload; the handler validates its shape (PermanentTaskError if wrong).
  payload: Record<string, unknown>;
  // 1 on the first attempt.
  attempt: number;
}

// A kind of task outside any run's plan (e.g. 'import-dataset' on the ingest stage), run by the
// stage worker of the service that registers it.
export interface JobHandler {
  readonly kind: string;
  // Resolves with the result stored in tasks.result. Must be safe to run twice (redelivery).
  handle(job: JobContext): Promise<Record<string, unknown>>;
}

export interface JobLimits {
  // Attempts (claims) before a failing task is dead; outages do not count.
  maxDeliver: number;
  isInfrastructureError(err: unknown): boolean;
  count(outcome: string): void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

// The envelope's JSON payload for a row the producer did not record; other media are kept as bytes.
function storedPayload(task: Task): Record<string, unknown> {
  if (task.payloadType === JSON_MEDIA_TYPE) {
    try {
      const value: unknown = JSON.parse(Buffer.from(task.payload).toString('utf8'));
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // kept as bytes below; the handler reports what it cannot read
    }
  }
  return { payloadType: task.payloadType, payloadBase64: Buffer.from(task.payload).toString('base64') };
}

// Records the task from its envelope unless the producer already did (keyed by task id).
export function recordFromEnvelope(ctx: RunContext, task: Task): Promise<void> {
  return recordTask(ctx.db, {
    id: task.taskId,
    runId: task.runId || null,
    stage: task.stage,
    kind: task.kind,
    payload: storedPayload(task),
  });
}

// Persists the final state and announces it; false when it was already final.
export async function finishAndAnnounce(
  ctx: RunContext,
  row: { id: string; runId: string | null; stage: string; kind: string },
  status: FinalTaskStatus,
  result: Record<string, unknown> | null,
  error: string | null,
): Promise<boolean> {
  if (!(await finishTask(ctx.db, row.id, status, result, error))) return false;
  await ctx.events.taskFinished(row.runId ?? '', row.id, { stage: row.stage, kind: row.kind, status, error });
  return true;
}

// A job's lifecycle: record -> claim -> handler -> final state -> announce. A job that already
// finished is only re-announced. Attempts are claims (tasks.attempts); one cut short by an outage
// is released so it does not count. Throws when the bus should redeliver or dead-letter.
export async function runJob(
  ctx: RunContext,
  handler: JobHandler,
  task: Task,
  limits: JobLimits,
): Promise<void> {
  await recordFromEnvelope(ctx, task);
  const claimed = await claimJob(ctx.db, task.taskId);
  if (!claimed) {
    const row = await loadTask(ctx.db, task.taskId);
    if (row?.status === 'done' || row?.status === 'failed' || row?.status === 'dead')
      await ctx.events.taskFinished(row.runId ?? '', row.id, {
        stage: row.stage,
        kind: row.kind,
        status: row.status,
        error: row.error,
      });
    limits.count('duplicate');
    return;
  }
  // Claimed more often than allowed: earlier claims ended without an outcome (worker killed or
  // hung past ack-wait). They were attempts; stop here.
  if (claimed.attempts > limits.maxDeliver) {
    const final = `gave up after ${claimed.attempts - 1} attempts that never finished`;
    await finishAndAnnounce(ctx, claimed, 'dead', { errorCode: 'internal' }, final);
    limits.count('dead');
    throw new GiveUpError(final);
  }
  await attemptJob(ctx, handler, claimed, limits);
}

async function attemptJob(
  ctx: RunContext,
  handler: JobHandler,
  claimed: TaskRow,
  limits: JobLimits,
): Promise<void> {
  const fields = { taskId: claimed.id, runId: claimed.runId, stage: claimed.stage, kind: claimed.kind };
  ctx.logger.info('task started', { ...fields, attempt: claimed.attempts });
  const t0 = performance.now();
  try {
    const result = await handler.handle({
      taskId: claimed.id,
      payload: claimed.payload,
      attempt: claimed.attempts,
    });
    await finishAndAnnounce(ctx, claimed, 'done', result, null);
    ctx.logger.info('task done', {
      ...fields,
      attempt: claimed.attempts,
      ms: Math.round(performance.now() - t0),
    });
    limits.count('done');
  } catch (err) {
    if (err instanceof PermanentTaskError) {
      await finishAndAnnounce(ctx, claimed, 'failed', { errorCode: err.code }, err.message);
      ctx.logger.warn('task failed', { ...fields, errorCode: err.code, error: err.message });
      limits.count('failed');
      return;
    }
    if (limits.isInfrastructureError(err)) {
      await releaseClaim(ctx.db, claimed.id).catch(() => undefined);
      throw err;
    }
    const message = errorText(err);
    if (claimed.attempts >= limits.maxDeliver) {
      const final = `gave up after ${claimed.attempts} attempts: ${message}`;
      await finishAndAnnounce(ctx, claimed, 'dead', { errorCode: 'internal' }, final);
      ctx.logger.error('task dead-lettered', { ...fields, error: final });
      limits.count('dead');
      throw new GiveUpError(final, { cause: err });
    }
    await requeueTask(ctx.db, claimed.id, message);
    limits.count('retried');
    throw err;
  }
}
