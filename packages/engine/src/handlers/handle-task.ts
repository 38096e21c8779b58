import {
  CallParkedError,
  CostLimitError,
  LlmConfigError,
  PermanentModelError,
  withBatchScope,
  withLedgerScope,
} from '@precis/llm';
import type { FinishedOutcome, HandlerResult, TaskOutcome } from '../family/benchmark-family.js';
import { runIdOfTask } from '../ids.js';
import type { RunContext } from '../planner/run-context.js';
import { setRunStatus } from '../planner/run-progress.js';
import { taskIdOfMessage } from '../runtime/reconciler.js';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { taskStatus } from '../stores/tasks.store.js';
import { claimTask, finishTask, finishTaskWithJudgments, runSpec } from '../tasks/task-store.js';
import { parkTask } from '../tasks/waiting-tasks.store.js';
import { SCORE_TASK_KIND, scoreRun } from './score-run.handler.js';
import { ConfigurationError, TemplateMismatchError } from './templates.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Errors that no redelivery can fix: the task is recorded as failed at once. A model endpoint
// that refused (401, 403, 404 model, a validation error, a missing key variable) is one: the
// client then fails every later call to it without sending anything.
function isPermanent(ctx: RunContext, err: unknown): boolean {
  return (
    err instanceof ConfigurationError ||
    err instanceof TemplateMismatchError ||
    err instanceof PermanentModelError ||
    err instanceof LlmConfigError ||
    ctx.families.isPermanent(err)
  );
}

// Runs one task from any stage: skips it when it already finished (a redelivery), does the work,
// persists the result and its side rows in one transaction, then reports the completion.
// Transient errors are rethrown so the bus redelivers; the caller acks only after this resolves.
export async function handleTask(ctx: RunContext, messageId: string): Promise<TaskOutcome> {
  const taskId = taskIdOfMessage(messageId);
  // The run's spec (memoized per run) is read while the task is claimed rather than after: task
  // ids start with their run's id. A task that is not claimed leaves the read unused.
  const prefix = runIdOfTask(taskId);
  if (UUID.test(prefix)) runSpec(ctx.db, prefix).catch(() => undefined);
  const task = await claimTask(ctx.db, taskId);
  if (!task) {
    // A redelivery of a finished task: announce it again, in case the first announcement was lost
    // between persisting and acking.
    const status = await taskStatus(ctx.db, taskId);
    if (status === 'done' || status === 'failed' || status === 'dead') {
      await ctx.events.taskFinished(runIdOfTask(taskId), taskId, { status });
    }
    return 'skipped';
  }
  const runId = task.runId;
  const spec = (await runSpec(ctx.db, runId)) as unknown as BenchmarkSpec;
  const ref = { id: task.id, runId };
  let outcome: FinishedOutcome;
  try {
    const work = () => runTaskKind(ctx, ref, task.kind, task.payload, spec);
    // The ledger records of the task's calls ride on its next statement (its finish, mostly).
    // Stages the spec sends through provider batches run in a batch scope (their calls may park).
    const batched = (spec.limits.batch as readonly string[] | undefined)?.includes(task.stage);
    outcome = await withLedgerScope(task.id, () =>
      batched ? withBatchScope({ taskId: task.id, runId }, work) : work(),
    );
  } catch (err) {
    if (err instanceof CallParkedError) {
      // No outcome yet: the batcher queues the task again once its calls are answered.
      if (await parkTask(ctx.db, task.id)) return 'waiting';
      throw new Error(`task ${task.id}: its batched calls were answered while it parked; it runs again`);
    }
    if (err instanceof CostLimitError) {
      // Not the task's failure: the run stops here and its open tasks (this one too) end
      // cancelled; no later call is made (a re-run with a higher limit redoes them, from the cache).
      await setRunStatus(ctx.db, runId, 'stopped', `cost limit reached: ${err.reason}`);
      await ctx.events.taskFinished(runId, task.id);
      return 'skipped';
    }
    if (!isPermanent(ctx, err)) throw err;
    await finishTaskWithJudgments(ctx.db, task.id, 'failed', null, (err as Error).message, []);
    outcome = 'failed';
  }
  const detail = { stage: task.stage, kind: task.kind };
  await ctx.events.taskFinished(
    runId,
    task.id,
    outcome === 'skipped' ? detail : { ...detail, status: outcome },
  );
  return outcome;
}

// The task's kind runs it: the engine's score task, or a loaded family's handler.
async function runTaskKind(
  ctx: RunContext,
  ref: { id: string; runId: string },
  kind: string,
  payload: Record<string, unknown>,
  spec: BenchmarkSpec,
): Promise<FinishedOutcome> {
  let out: HandlerResult;
  if (kind === SCORE_TASK_KIND) out = { result: await scoreRun(ctx, ref.runId, spec) };
  else {
    const handler = ctx.families.taskKind(kind);
    if (!handler)
      throw new ConfigurationError(
        `task ${ref.id}: no loaded benchmark family handles task kind "${kind}" (known: ${[...ctx.families.taskKinds.keys()].join(', ')})`,
      );
    out = await handler.handle(ctx, ref, payload, spec);
  }
  if ('persisted' in out) return out.persisted;
  // Not changed: the task ended meanwhile (its run was stopped or cancelled): the result is dropped.
  // Group-committed: 800 offline summaries finishing at once took 800 statements (kgds-verify).
  const changed = await finishTaskWithJudgments(ctx.db, ref.id, 'done', out.result, null, []);
  return changed ? 'done' : 'skipped';
}

// Called by the bus when a task exhausted its deliveries.
export async function markTaskDead(ctx: RunContext, taskId: string, error: string): Promise<void> {
  const runId = runIdOfTask(taskId);
  const changed = await finishTask(ctx.db.manager, taskId, 'dead', null, error);
  if (changed) await ctx.events.taskFinished(runId, taskId, { status: 'dead', error });
}
