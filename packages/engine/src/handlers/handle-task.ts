import { setImmediate as nextTurn } from 'node:timers/promises';
import { CostLimitError, LlmConfigError, PermanentModelError } from '@precis/llm';
import { StrategyError } from '@precis/strategies';
import { judgmentId, runIdOfTask } from '../ids.js';
import { summarizeOpinion } from '../opinion/opinion-summary.js';
import type { RunContext } from '../planner/run-context.js';
import { setRunStatus } from '../planner/run-progress.js';
import { taskIdOfMessage } from '../runtime/reconciler.js';
import { type BenchmarkSpec, isBooookScoreMetric, isGeneratedSystem } from '../spec/benchmark-spec.schema.js';
import { summaryText } from '../tasks/summary-texts.js';
import type { AnnotateCoherencePayload, SummarizeStepPayload, TaskPayload } from '../tasks/task-payloads.js';
import {
  claimTask,
  finishTask,
  finishTaskWithJudgments,
  type JudgmentRow,
  runSpec,
} from '../tasks/task-store.js';
import { annotateCoherence, JudgeOutputError } from './annotate-coherence.handler.js';
import { generateGevalSteps, judgeDimension } from './judge-dimension.handler.js';
import { scoreRun } from './score-run.handler.js';
import { ConfigurationError, summarizeStep } from './summarize-step.handler.js';
import { withTaskLedger, writeWithCalls } from './task-ledger.js';
import { TemplateMismatchError } from './templates.js';

export type TaskOutcome = 'done' | 'failed' | 'skipped';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Errors that no redelivery can fix: the task is recorded as failed at once. A model endpoint
// that refused (401, 403, 404 model, a validation error, a missing key variable) is one: the
// client then fails every later call to it without sending anything.
function isPermanent(err: unknown): boolean {
  return (
    err instanceof ConfigurationError ||
    err instanceof TemplateMismatchError ||
    err instanceof StrategyError ||
    err instanceof PermanentModelError ||
    err instanceof LlmConfigError
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
    const rows: { status: string }[] = await ctx.db.query('SELECT status FROM tasks WHERE id = $1', [taskId]);
    const status = rows[0]?.status;
    if (status === 'done' || status === 'failed' || status === 'dead') {
      await ctx.events.taskFinished(runIdOfTask(taskId), taskId);
    }
    return 'skipped';
  }
  // The tasks a worker claimed together go on one event-loop turn each: a task whose next step is
  // a model call (its claim brought everything the call needs) then has its request on the wire
  // before the next task is worked on, instead of after every one of them built its prompt.
  await nextTurn();
  const runId = task.runId;
  const spec = (await runSpec(ctx.db, runId)) as unknown as BenchmarkSpec;
  const payload = task.payload as unknown as TaskPayload;
  const ref = { id: task.id, runId };
  let outcome: TaskOutcome;
  try {
    outcome = await runPayload(ctx, ref, payload, spec);
  } catch (err) {
    if (err instanceof CostLimitError) {
      // Not the task's failure: the run stops here, the task stays open (a re-run with a higher
      // limit would do it), and no later call is made.
      await setRunStatus(ctx.db, runId, 'stopped', `cost limit reached: ${err.reason}`);
      await task.marked;
      await ctx.events.taskFinished(runId, task.id);
      return 'skipped';
    }
    if (!isPermanent(err)) throw err;
    await finishTask(ctx.db.manager, task.id, 'failed', null, (err as Error).message);
    outcome = 'failed';
  }
  await task.marked;
  await ctx.events.taskFinished(runId, task.id);
  return outcome;
}

async function runPayload(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: TaskPayload,
  spec: BenchmarkSpec,
): Promise<TaskOutcome> {
  switch (payload.type) {
    case 'summary-step': {
      const system = spec.systems
        .filter(isGeneratedSystem)
        .find((s) => s.name === (payload as SummarizeStepPayload).system);
      if (!system)
        throw new ConfigurationError(`task ${ref.id}: system ${payload.system} is not in the run's spec`);
      const result = await summarizeStep(ctx, ref, payload, system, spec.cache, spec.templateOverrides);
      await finishTask(ctx.db.manager, ref.id, 'done', result, null);
      return 'done';
    }
    case 'booookscore-batch':
      return annotate(ctx, ref, payload, spec);
    case 'score-run': {
      const result = await scoreRun(ctx, ref.runId, spec);
      await finishTask(ctx.db.manager, ref.id, 'done', result, null);
      return 'done';
    }
    case 'opinion-summary': {
      const system = spec.systems.filter(isGeneratedSystem).find((s) => s.name === payload.system);
      if (!system)
        throw new ConfigurationError(`task ${ref.id}: system ${payload.system} is not in the run's spec`);
      const result = await summarizeOpinion(ctx, ref, payload, system, spec.cache, spec.templateOverrides);
      await finishTask(ctx.db.manager, ref.id, 'done', result, null);
      return 'done';
    }
    case 'geval-steps':
      return generateGevalSteps(ctx, ref, payload, spec);
    case 'judge-dimension':
      return judgeDimension(ctx, ref, payload, spec);
  }
}

async function annotate(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: AnnotateCoherencePayload,
  spec: BenchmarkSpec,
): Promise<TaskOutcome> {
  const metric = spec.metrics[payload.metricIndex];
  if (!metric || !isBooookScoreMetric(metric))
    throw new ConfigurationError(`task ${ref.id}: metric #${payload.metricIndex} is not in the run's spec`);
  const text = await summaryText(ctx.db, payload.summaryId);
  if (text === null)
    throw new ConfigurationError(`task ${ref.id}: summary ${payload.summaryId} does not exist`);
  const summary = { id: payload.summaryId, text };
  const metricKey = `${metric.name}.${payload.metricIndex}`;
  const rows = (
    judge: string,
    templateVersion: string | null,
    verdicts: { n: number; status: string; verdict: Record<string, unknown> }[],
  ): JudgmentRow[] =>
    verdicts.map((v) => ({
      id: judgmentId(summary.id, metricKey, v.n),
      runId: ref.runId,
      summaryId: summary.id,
      system: payload.system,
      metric: metricKey,
      unit: v.n,
      status: v.status,
      verdict: v.verdict,
      judge,
      templateVersion,
      taskId: ref.id,
    }));
  return withTaskLedger(ctx, async (ledger) => {
    try {
      const result = await annotateCoherence(
        ctx,
        ref,
        payload,
        summary.text,
        metric,
        spec.cache,
        spec.templateOverrides,
        ledger,
      );
      const verdicts = result.verdicts.map((v) => ({ n: v.n, status: 'ok', verdict: { ...v } }));
      await writeWithCalls(ledger, (calls) =>
        finishTaskWithJudgments(
          ctx.db,
          ref.id,
          'done',
          result,
          null,
          rows(result.judge, result.templateVersion, verdicts),
          calls,
        ),
      );
      return 'done';
    } catch (err) {
      if (!(err instanceof JudgeOutputError)) throw err;
      const failed = payload.sentences.map((s) => ({
        n: s.n,
        status: 'failed',
        verdict: { error: err.message, outputs: err.outputs },
      }));
      await writeWithCalls(ledger, (calls) =>
        finishTaskWithJudgments(
          ctx.db,
          ref.id,
          'failed',
          { judge: err.judge, outputs: err.outputs },
          err.message,
          rows(err.judge, err.templateVersion, failed),
          calls,
        ),
      );
      return 'failed';
    }
  });
}

// Called by the bus when a task exhausted its deliveries.
export async function markTaskDead(ctx: RunContext, taskId: string, error: string): Promise<void> {
  const runId = runIdOfTask(taskId);
  const changed = await finishTask(ctx.db.manager, taskId, 'dead', null, error);
  if (changed) await ctx.events.taskFinished(runId, taskId);
}
