import { performance } from 'node:perf_hooks';
import {
  type Bus,
  type ConsumerHandle,
  type Delivery,
  GiveUpError,
  isBusUnavailableError,
} from '@precis/bus';
import { decodeTask, type Stage, type Task } from '@precis/contracts';
import { isDatabaseUnavailableError, type TaskStatus } from '@precis/db';
import { handleTask, markTaskDead } from '../handlers/handle-task.js';
import { SCORE_TASK_KIND } from '../handlers/score-run.handler.js';
import type { RunContext } from '../planner/run-context.js';
import type { WorkerMetrics } from '../ports.js';
import { taskAttempts } from '../stores/tasks.store.js';
import { recordTask } from '../tasks/job-store.js';
import { MalformedTaskError, UnknownTaskKindError } from '../tasks/task-errors.js';
import { FINISHED } from '../tasks/task-store.js';
import { finishAndAnnounce, type JobHandler, recordFromEnvelope, runJob } from './job-tasks.js';

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
  // Kinds of task outside any run (e.g. a dataset import) this worker runs besides the run tasks
  // of the loaded families.
  jobs?: readonly JobHandler[];
  metrics?: WorkerMetrics;
}

/** The database or the bus was unavailable: the task was not really attempted. */
export function isInfrastructureError(err: unknown): boolean {
  return isDatabaseUnavailableError(err) || isBusUnavailableError(err);
}

// How often an outage is logged per stage: every delivery fails while it lasts.
const OUTAGE_LOG_EVERY_MS = 10_000;

const noMetrics: WorkerMetrics = { handled() {}, busy() {}, handlerSeconds() {} };
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

// The one worker of every stage queue. Each message is a precis.v1.Task envelope; its kind picks
// the lifecycle: a run task (the engine's score task or a loaded family's kind) goes through
// handleTask, a job through runJob; both persist before resolving, so the bus acks only after
// the result is stored. Unknown kinds and undecodable envelopes are recorded as failed and
// rejected until their last delivery, then dead-lettered. Attempts are counted by the task's
// claims in the database, not by bus deliveries: while the database or the bus is down,
// deliveries are naked with backoff and count for nothing.
class StageWorker {
  private readonly jobs: Map<string, JobHandler>;
  private readonly metrics: WorkerMetrics;
  private readonly maxAttempts: number;
  private lastOutageLog = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly stage: Stage,
    opts: StageWorkerOptions,
  ) {
    this.jobs = new Map((opts.jobs ?? []).map((j) => [j.kind, j]));
    this.metrics = opts.metrics ?? noMetrics;
    this.maxAttempts = opts.maxDeliver ?? 5;
  }

  // Kinds this worker runs on its stage, for the unknown-kind error.
  private kinds(): string[] {
    const run = [...this.ctx.families.taskKinds.values()]
      .filter((k) => k.stage === this.stage)
      .map((k) => k.kind);
    if (this.stage === 'score') run.unshift(SCORE_TASK_KIND);
    return [...run, ...this.jobs.keys()];
  }

  async process(delivery: Delivery): Promise<void> {
    this.metrics.busy(this.stage, 1);
    const t0 = performance.now();
    try {
      await this.route(delivery);
    } catch (err) {
      if (isInfrastructureError(err) && Date.now() - this.lastOutageLog >= OUTAGE_LOG_EVERY_MS) {
        this.lastOutageLog = Date.now();
        this.ctx.logger.warn('database or bus unavailable: tasks wait for it (not counted as attempts)', {
          stage: this.stage,
          messageId: delivery.id,
          error: errorText(err),
        });
      }
      throw err;
    } finally {
      this.metrics.busy(this.stage, -1);
      this.metrics.handlerSeconds(this.stage, (performance.now() - t0) / 1000);
    }
  }

  private async route(delivery: Delivery): Promise<void> {
    const task = await this.decode(delivery);
    const count = (outcome: string) => this.metrics.handled(this.stage, task.kind, outcome);
    if (task.kind === SCORE_TASK_KIND || this.ctx.families.taskKind(task.kind))
      return this.runTask(delivery, task, count);
    const job = this.jobs.get(task.kind);
    if (job)
      return runJob(this.ctx, job, task, { maxDeliver: this.maxAttempts, isInfrastructureError, count });
    const err = new UnknownTaskKindError(task.taskId, this.stage, task.kind, this.kinds());
    await recordFromEnvelope(this.ctx, task);
    const row = { id: task.taskId, runId: task.runId || null, stage: this.stage, kind: task.kind };
    if (await finishAndAnnounce(this.ctx, row, 'failed', null, err.message))
      this.ctx.logger.error(err.message, { taskId: task.taskId, stage: this.stage });
    count('unknown-kind');
    this.reject(delivery, err);
  }

  // The envelope, or (undecodable) a failed 'malformed' task recorded under the message id.
  private async decode(delivery: Delivery): Promise<Task> {
    let problem: string;
    if (!(delivery.data instanceof Uint8Array))
      problem = 'expected a binary precis.v1.Task envelope, got JSON';
    else {
      try {
        const task = decodeTask(delivery.data);
        if (task.stage === this.stage) return task;
        problem = `its envelope names stage ${task.stage}`;
      } catch (err) {
        problem = errorText(err);
      }
    }
    const err = new MalformedTaskError(delivery.id, this.stage, problem);
    const row = { id: delivery.id, runId: delivery.runId ?? null, stage: this.stage, kind: 'malformed' };
    await recordTask(this.ctx.db, { ...row, payload: {} });
    await finishAndAnnounce(this.ctx, row, 'failed', null, err.message);
    this.metrics.handled(this.stage, 'malformed', 'malformed');
    this.reject(delivery, err);
  }

  // A run task: handleTask claims, runs and persists it. Redelivered more often than attempts
  // allow, earlier claims may have ended without an outcome (worker killed or hung past
  // ack-wait): those claims counted, so stop at the limit.
  private async runTask(delivery: Delivery, task: Task, count: (outcome: string) => void): Promise<void> {
    const taskId = task.taskId;
    if (delivery.deliveryCount > this.maxAttempts) {
      const seen = await this.attempts(taskId);
      if (seen?.open && seen.attempts >= this.maxAttempts)
        await this.giveUp(taskId, `gave up after ${seen.attempts} attempts that never finished`, count);
    }
    try {
      count(await handleTask(this.ctx, taskId));
    } catch (err) {
      if (isInfrastructureError(err)) throw err;
      const attempts = (await this.attempts(taskId))?.attempts ?? 0;
      this.ctx.logger.error('task failed', {
        stage: this.stage,
        taskId,
        runId: task.runId,
        attempt: attempts,
        error: errorText(err),
      });
      if (attempts >= this.maxAttempts)
        await this.giveUp(taskId, `gave up after ${attempts} attempts: ${errorText(err)}`, count, err);
      count('retried');
      throw err;
    }
  }

  private async attempts(taskId: string): Promise<{ attempts: number; open: boolean } | null> {
    const row = await taskAttempts(this.ctx.db, taskId);
    if (!row) return null;
    return { attempts: Number(row.attempts), open: !FINISHED.includes(row.status as TaskStatus) };
  }

  private async giveUp(
    taskId: string,
    reason: string,
    count: (o: string) => void,
    cause?: unknown,
  ): Promise<never> {
    await markTaskDead(this.ctx, taskId, reason);
    count('dead');
    throw new GiveUpError(reason, { cause });
  }

  // A message no redelivery can fix: rejected until its last allowed delivery, then dead-lettered.
  private reject(delivery: Delivery, err: unknown): never {
    if (delivery.deliveryCount >= this.maxAttempts) throw new GiveUpError(errorText(err), { cause: err });
    throw err;
  }
}

// Consumes a stage's queue with a StageWorker until the handle is stopped (which lets in-flight
// tasks finish, persist and ack).
export async function startStageWorker(
  ctx: RunContext,
  bus: Bus,
  stage: Stage,
  opts: StageWorkerOptions = {},
): Promise<ConsumerHandle> {
  const worker = new StageWorker(ctx, stage, opts);
  await bus.ensureQueue(stage);
  return bus.consume(stage, (delivery) => worker.process(delivery), {
    maxInFlight: opts.concurrency ?? 8,
    ackWaitMs: opts.ackWaitMs ?? 60_000,
    maxDeliver: Number.POSITIVE_INFINITY,
    isTransient: isInfrastructureError,
    backoffMs: opts.backoffMs,
    transientBackoffMs: opts.transientBackoffMs,
  });
}
