// The engine's stage worker running jobs (tasks outside any run) against the real PostgreSQL
// (throwaway database) and NATS JetStream (prefixed streams): lifecycle, idempotency by task id,
// retries, permanent failures, unknown kinds and malformed envelopes, graceful stop.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ConsumerHandle, createNatsBus, type NatsBus } from '@precis/bus';
import { createJsonTask, encodeTask, TaskStatus } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import {
  createRunContext,
  finishTask,
  type JobContext,
  type JobHandler,
  loadTask,
  PermanentTaskError,
  recordTask,
  startStageWorker,
} from '@precis/engine';
import { builtInFamilies } from '@precis/families';
import { createServiceLogger, MetricsRegistry, TaskCompletionWatcher, workerMetrics } from '@precis/service';
import type { DataSource } from 'typeorm';

const logger = createServiceLogger({ service: 'test', version: '0', level: 'silent' });

class ScriptedJob implements JobHandler {
  readonly kind = 'echo';
  readonly calls: JobContext[] = [];
  // Per task id: what each attempt does ('ok' | 'transient' | 'outage' | 'permanent' | a gate).
  readonly script = new Map<string, (string | Promise<void>)[]>();

  async handle(job: JobContext): Promise<Record<string, unknown>> {
    this.calls.push(job);
    const step = this.script.get(job.taskId)?.shift() ?? 'ok';
    if (step === 'transient') throw new Error('database hiccup');
    if (step === 'outage')
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:5432'), { code: 'ECONNREFUSED' });
    if (step === 'permanent') throw new PermanentTaskError('bad input: field x', 'invalid-argument');
    if (step instanceof Promise) await step;
    return { echoed: job.payload, attempt: job.attempt };
  }
}

describe('stage worker jobs (PostgreSQL + NATS)', () => {
  const prefix = `int_jobs_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let bus: NatsBus;
  let watcher: TaskCompletionWatcher;
  let worker: ConsumerHandle;
  const metrics = new MetricsRegistry();
  const job = new ScriptedJob();
  let n = 0;
  const nextId = () => `${prefix}:t${n + 1}`;

  const send = async (payload: Record<string, unknown>, kind = 'echo') => {
    const taskId = `${prefix}:t${++n}`;
    const wait = watcher.wait(taskId, 30_000);
    await bus.enqueue('ingest', {
      id: taskId,
      data: encodeTask(createJsonTask({ taskId, runId: '', stage: 'ingest', kind, payload })),
    });
    return { taskId, event: wait.done };
  };

  const deadLetter = async (id: string) => {
    for (let i = 0; i < 50 && !(await bus.deadLetters('ingest')).some((d) => d.id === id); i++)
      await new Promise((r) => setTimeout(r, 100));
    return (await bus.deadLetters('ingest')).find((d) => d.id === id);
  };

  beforeAll(async () => {
    db = await createThrowawayDatabase('int_stage_worker_jobs');
    ds = await createDataSource({ url: db.url, runMigrations: true });
    bus = await createNatsBus({ prefix });
    watcher = new TaskCompletionWatcher(bus, logger);
    await watcher.start();
    const ctx = createRunContext({ families: builtInFamilies(), db: ds, bus });
    worker = await startStageWorker(ctx, bus, 'ingest', {
      jobs: [job],
      metrics: workerMetrics(metrics),
      concurrency: 4,
      maxDeliver: 3,
      backoffMs: [20],
      ackWaitMs: 5000,
      transientBackoffMs: [20],
    });
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await watcher?.stop();
    await bus?.deleteStreams();
    await bus?.close();
    await ds?.destroy();
    await db?.drop();
  }, 60_000);

  it('runs a job, stores its result and announces it', async () => {
    const { taskId, event } = await send({ text: 'hello' });
    expect(await event).toMatchObject({
      taskId,
      stage: 'ingest',
      kind: 'echo',
      status: TaskStatus.TASK_STATUS_DONE,
    });
    expect(await loadTask(ds, taskId)).toMatchObject({
      status: 'done',
      attempts: 1,
      error: null,
      payload: { text: 'hello' },
      result: { echoed: { text: 'hello' }, attempt: 1 },
    });
  });

  it('reads the payload from the row the producer recorded', async () => {
    const taskId = nextId();
    await recordTask(ds, {
      id: taskId,
      runId: null,
      stage: 'ingest',
      kind: 'echo',
      payload: { from: 'row' },
    });
    const { event } = await send({ from: 'envelope' });
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect((await loadTask(ds, taskId))?.result).toEqual({ echoed: { from: 'row' }, attempt: 1 });
  });

  it('retries a transient failure and records the attempts', async () => {
    const taskId = nextId();
    job.script.set(taskId, ['transient', 'ok']);
    const { event } = await send({ text: 'again' });
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(await loadTask(ds, taskId)).toMatchObject({ status: 'done', attempts: 2, result: { attempt: 2 } });
  });

  it('records a permanent failure once, with its error code, without retrying', async () => {
    const taskId = nextId();
    job.script.set(taskId, ['permanent']);
    const { event } = await send({});
    expect(await event).toMatchObject({ status: TaskStatus.TASK_STATUS_FAILED, error: 'bad input: field x' });
    expect(await loadTask(ds, taskId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      result: { errorCode: 'invalid-argument' },
    });
    expect(job.calls.filter((c) => c.taskId === taskId)).toHaveLength(1);
  });

  it('does not rerun a job that already finished, only re-announces it', async () => {
    const taskId = nextId();
    await recordTask(ds, { id: taskId, runId: null, stage: 'ingest', kind: 'echo', payload: {} });
    await finishTask(ds, taskId, 'done', { from: 'earlier' }, null);
    const { event } = await send({});
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(job.calls.some((c) => c.taskId === taskId)).toBe(false);
    expect((await loadTask(ds, taskId))?.result).toEqual({ from: 'earlier' });
  });

  it('dead-letters a job that keeps failing, marking it dead', async () => {
    const taskId = nextId();
    job.script.set(taskId, ['transient', 'transient', 'transient']);
    const { event } = await send({});
    expect(await event).toMatchObject({ status: TaskStatus.TASK_STATUS_DEAD });
    expect((await loadTask(ds, taskId))?.error).toBe('gave up after 3 attempts: database hiccup');
    expect((await deadLetter(taskId))?.deliveryCount).toBe(3);
  });

  it('does not count attempts cut short by an outage, however many', async () => {
    const taskId = nextId();
    job.script.set(taskId, ['outage', 'outage', 'outage', 'outage', 'outage', 'ok']);
    const { event } = await send({});
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(await loadTask(ds, taskId)).toMatchObject({ status: 'done', attempts: 1, result: { attempt: 1 } });
    expect(job.calls.filter((c) => c.taskId === taskId)).toHaveLength(6);
    expect((await bus.deadLetters('ingest')).map((d) => d.id)).not.toContain(taskId);
  });

  it('records a task of an unknown kind as failed, naming the kinds it runs, and dead-letters it', async () => {
    const { taskId, event } = await send({ x: 1 }, 'reindex');
    const failed = await event;
    const message = `unknown task kind "reindex" for stage ingest (task ${taskId}): this service handles only echo; the task was marked failed and dead-lettered (check the producer or deploy a service version that knows this kind)`;
    expect(failed).toMatchObject({ kind: 'reindex', status: TaskStatus.TASK_STATUS_FAILED, error: message });
    expect(await loadTask(ds, taskId)).toMatchObject({
      status: 'failed',
      kind: 'reindex',
      payload: { x: 1 },
      error: message,
    });
    expect((await deadLetter(taskId))?.deliveryCount).toBe(3);
    expect(metrics.render()).toContain(
      'precis_tasks_total{kind="reindex",outcome="unknown-kind",stage="ingest"} 3',
    );
  });

  it('records an undecodable message as a failed malformed task and dead-letters it', async () => {
    const id = `${prefix}:garbage`;
    const wait = watcher.wait(id, 30_000);
    await bus.enqueue('ingest', { id, data: Uint8Array.from([0x0a, 0xff, 0xff, 0xff]) });
    const failed = await wait.done;
    expect(failed?.status).toBe(TaskStatus.TASK_STATUS_FAILED);
    expect(failed?.error).toMatch(
      new RegExp(
        `^malformed task ${id} on stage ingest: cannot decode precis\\.v1\\.Task: .*; the message was dead-lettered$`,
      ),
    );
    expect(await loadTask(ds, id)).toMatchObject({ status: 'failed', kind: 'malformed' });
    expect((await deadLetter(id))?.deliveryCount).toBe(3);
  });

  it('stop() waits for the job in flight, which still persists and acks', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const taskId = nextId();
    job.script.set(taskId, [gate]);
    const { event } = await send({ slow: true });
    for (let i = 0; i < 100 && !job.calls.some((c) => c.taskId === taskId); i++)
      await new Promise((r) => setTimeout(r, 20));
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect((await loadTask(ds, taskId))?.status).toBe('done');
    expect(await bus.pending('ingest')).toBe(0);
  });
});
