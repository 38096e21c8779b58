import { performance } from 'node:perf_hooks';
import { type Bus, type ConsumerHandle, type Delivery, GiveUpError } from '@precis/bus';
import { decodeTask, JSON_MEDIA_TYPE, type Stage, type Task, taskJsonPayload } from '@precis/contracts';
import { isInfrastructureError } from '@precis/engine';
import type { DataSource } from 'typeorm';
import { type ServiceLogger, taskLogger } from '../logging/create-logger.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { MalformedTaskError, PermanentTaskError, UnknownTaskKindError } from './task-errors.js';
import { publishTaskCompleted, taskCompletedFromRow } from './task-events.js';
import {
  claimTask,
  type FinalStatus,
  finishTask,
  loadTask,
  recordTask,
  releaseClaim,
  requeueTask,
  type TaskRow,
} from './task-records.js';

export interface TaskContext<P = unknown> {
  task: Task;
  // The decoded JSON payload; the handler validates its shape (PermanentTaskError if wrong).
  payload: P;
  logger: ServiceLogger;
  // 1 on the first delivery.
  attempt: number;
}

export interface TaskHandler {
  readonly kind: string;
  // Resolves with the result stored in tasks.result. Must be safe to run twice (redelivery).
  handle(ctx: TaskContext): Promise<Record<string, unknown>>;
}

export interface StageWorkerOptions {
  stage: Stage;
  handlers: readonly TaskHandler[];
  concurrency: number;
  // Attempts (claims, tasks.attempts) before a failing task is dead; outages do not count.
  maxDeliver: number;
  backoffMs: number[];
  ackWaitMs: number;
  // Delays before redelivering while the database or bus is down (default: the bus's).
  transientBackoffMs?: number[];
}

export interface StageWorkerDeps {
  bus: Bus;
  dataSource: DataSource;
  logger: ServiceLogger;
  metrics: MetricsRegistry;
}

// An outage fails every delivery: it is logged at most this often per stage.
const OUTAGE_LOG_EVERY_MS = 10_000;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function storedPayload(task: Task): Record<string, unknown> {
  if (task.payloadType === JSON_MEDIA_TYPE) {
    try {
      const value: unknown = JSON.parse(Buffer.from(task.payload).toString('utf8'));
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // kept as bytes below; the handler reports the decoding error
    }
  }
  return { payloadType: task.payloadType, payloadBase64: Buffer.from(task.payload).toString('base64') };
}

// Pulls one stage's queue and runs each task through its lifecycle: record (idempotent by task
// id) -> claim -> handler -> persist the final state -> announce task-completed -> ack. A task
// that already reached a final state is only re-announced. Unknown kinds and undecodable
// envelopes are recorded as failed and rejected until their maxDeliver-th delivery, then
// dead-lettered. Attempts are the task's claims (tasks.attempts): a delivery that failed
// because the database or bus was down is retried with backoff and counts for nothing.
export class StageWorker {
  private handle: ConsumerHandle | null = null;
  private readonly handlers: Map<string, TaskHandler>;
  private readonly log: ServiceLogger;
  private lastOutageLog = 0;

  constructor(
    private readonly deps: StageWorkerDeps,
    private readonly opts: StageWorkerOptions,
  ) {
    this.handlers = new Map(opts.handlers.map((h) => [h.kind, h]));
    this.log = deps.logger.child({ component: 'worker', stage: opts.stage });
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  async start(): Promise<void> {
    if (this.handle) return;
    this.handle = await this.deps.bus.consume(this.opts.stage, (d) => this.process(d), {
      maxInFlight: this.opts.concurrency,
      // This worker decides when to give up (GiveUpError), from the task's attempts.
      maxDeliver: Number.POSITIVE_INFINITY,
      isTransient: isInfrastructureError,
      transientBackoffMs: this.opts.transientBackoffMs,
      backoffMs: this.opts.backoffMs,
      ackWaitMs: this.opts.ackWaitMs,
      onError: (err, d) => {
        if (!isInfrastructureError(err))
          this.log.warn(
            { taskId: d.id, runId: d.runId, delivery: d.deliveryCount, err: errorText(err) },
            'task attempt failed',
          );
      },
    });
    this.log.info({ kinds: this.kinds, concurrency: this.opts.concurrency }, 'consuming stage queue');
  }

  // Stops pulling, lets in-flight tasks finish (persist + ack), then resolves.
  async stop(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (!h) return;
    this.log.info('stopping: no new tasks, finishing in-flight ones');
    await h.stop();
    this.log.info('stopped');
  }

  // For a host that pulls the stage queue itself (a queue shared with the run runtime's JSON
  // tasks) and routes precis.v1.Task envelopes here: the same lifecycle as a delivery pulled by
  // start(). Throws when the bus should redeliver (or dead-letter) the message.
  handleDelivery(delivery: Delivery): Promise<void> {
    return this.process(delivery);
  }

  private counter(outcome: string, kind: string): void {
    this.deps.metrics
      .counter('precis_tasks_total', 'tasks handled, by stage, kind and outcome')
      .inc({ stage: this.opts.stage, kind, outcome });
  }

  private async process(delivery: Delivery): Promise<void> {
    const stage = this.opts.stage;
    const inFlight = this.deps.metrics.gauge('precis_tasks_in_flight', 'tasks being handled now');
    inFlight.inc({ stage });
    const t0 = performance.now();
    try {
      await this.run(delivery);
    } catch (err) {
      if (isInfrastructureError(err) && Date.now() - this.lastOutageLog >= OUTAGE_LOG_EVERY_MS) {
        this.lastOutageLog = Date.now();
        this.log.warn(
          { taskId: delivery.id, err: errorText(err) },
          'database or bus unavailable: tasks wait for it',
        );
      }
      throw err;
    } finally {
      inFlight.dec({ stage });
      this.deps.metrics
        .counter('precis_task_seconds_total', 'time spent in task handlers, by stage')
        .inc({ stage }, (performance.now() - t0) / 1000);
    }
  }

  private decode(delivery: Delivery): Task {
    const { stage } = this.opts;
    if (!(delivery.data instanceof Uint8Array)) {
      throw new MalformedTaskError(delivery.id, stage, 'expected a binary precis.v1.Task envelope, got JSON');
    }
    let task: Task;
    try {
      task = decodeTask(delivery.data);
    } catch (err) {
      throw new MalformedTaskError(delivery.id, stage, errorText(err));
    }
    if (task.stage !== stage) {
      throw new MalformedTaskError(task.taskId, stage, `its envelope names stage ${task.stage}`);
    }
    return task;
  }

  private async run(delivery: Delivery): Promise<void> {
    const { dataSource: ds } = this.deps;
    const { stage } = this.opts;
    let task: Task;
    try {
      task = this.decode(delivery);
    } catch (err) {
      const record = {
        id: delivery.id,
        runId: delivery.runId ?? null,
        stage,
        kind: 'malformed',
        payload: {},
      };
      await recordTask(ds, record);
      await this.finishAndAnnounce(record.id, record.runId ?? '', 'failed', null, errorText(err));
      this.counter('malformed', 'malformed');
      this.reject(delivery, err);
    }
    const log = taskLogger(this.deps.logger, {
      taskId: task.taskId,
      runId: task.runId,
      stage,
      kind: task.kind,
    });
    await recordTask(ds, {
      id: task.taskId,
      runId: task.runId || null,
      stage,
      kind: task.kind,
      payload: storedPayload(task),
    });

    const handler = this.handlers.get(task.kind);
    if (!handler) {
      const err = new UnknownTaskKindError(task.taskId, stage, task.kind, this.kinds);
      if (await this.finishAndAnnounce(task.taskId, task.runId, 'failed', null, err.message))
        log.error(err.message);
      this.counter('unknown-kind', task.kind);
      this.reject(delivery, err);
    }

    const claimed = await claimTask(ds, task.taskId);
    if (!claimed) {
      const row = await loadTask(ds, task.taskId);
      if (row) await publishTaskCompleted(this.deps.bus, taskCompletedFromRow(row, task.runId));
      log.info({ status: row?.status }, 'task already finished; re-announced its completion');
      this.counter('duplicate', task.kind);
      return;
    }

    await this.runClaimed(task, handler, claimed, log);
  }

  // The claimed task's attempt: handler, then its final state or a retry. Attempts are claims;
  // one cut short by an outage is released so it does not count.
  private async runClaimed(
    task: Task,
    handler: TaskHandler,
    claimed: TaskRow,
    log: ServiceLogger,
  ): Promise<void> {
    const ds = this.deps.dataSource;
    // Claimed more often than allowed: earlier claims ended without an outcome (worker killed or
    // hung past ack-wait). They were attempts; stop here.
    if (claimed.attempts > this.opts.maxDeliver) {
      const final = `gave up after ${claimed.attempts - 1} attempts that never finished`;
      await this.finishAndAnnounce(task.taskId, task.runId, 'dead', { errorCode: 'internal' }, final);
      this.counter('dead', task.kind);
      throw new GiveUpError(final);
    }
    log.info({ attempt: claimed.attempts }, 'task started');
    const t0 = performance.now();
    try {
      let payload: unknown;
      try {
        payload = taskJsonPayload(task);
      } catch (err) {
        throw new PermanentTaskError(errorText(err), 'invalid-argument');
      }
      const result = await handler.handle({ task, payload, logger: log, attempt: claimed.attempts });
      await this.finishAndAnnounce(task.taskId, task.runId, 'done', result, null);
      log.info({ ms: Math.round(performance.now() - t0) }, 'task done');
      this.counter('done', task.kind);
    } catch (err) {
      if (err instanceof PermanentTaskError) {
        await this.finishAndAnnounce(task.taskId, task.runId, 'failed', { errorCode: err.code }, err.message);
        log.warn({ errorCode: err.code, err: err.message }, 'task failed');
        this.counter('failed', task.kind);
        return;
      }
      if (isInfrastructureError(err)) {
        await releaseClaim(ds, task.taskId).catch(() => undefined);
        throw err;
      }
      const message = errorText(err);
      if (claimed.attempts >= this.opts.maxDeliver) {
        const final = `gave up after ${claimed.attempts} attempts: ${message}`;
        await this.finishAndAnnounce(task.taskId, task.runId, 'dead', { errorCode: 'internal' }, final);
        log.error({ err }, 'task dead-lettered');
        this.counter('dead', task.kind);
        throw new GiveUpError(final, { cause: err });
      }
      await requeueTask(ds, task.taskId, message);
      this.counter('retried', task.kind);
      throw err;
    }
  }

  // A message no redelivery can fix: rejected until its last allowed delivery, then dead-lettered.
  private reject(delivery: Delivery, err: unknown): never {
    if (delivery.deliveryCount >= this.opts.maxDeliver) throw new GiveUpError(errorText(err), { cause: err });
    throw err;
  }

  // Persists the final state and announces it; false when it was already final.
  private async finishAndAnnounce(
    id: string,
    runId: string,
    status: FinalStatus,
    result: Record<string, unknown> | null,
    error: string | null,
  ): Promise<boolean> {
    const { dataSource: ds, bus } = this.deps;
    const changed = await finishTask(ds, id, status, result, error);
    if (!changed) return false;
    const row = await loadTask(ds, id);
    if (row) await publishTaskCompleted(bus, taskCompletedFromRow(row, runId));
    return true;
  }
}
