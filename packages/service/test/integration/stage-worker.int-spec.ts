// StageWorker against the real PostgreSQL (throwaway database) and NATS JetStream (prefixed
// streams): task lifecycle, idempotency by task id, retries, permanent failures, graceful stop.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createJsonTask, encodeTask, TaskStatus } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { createServiceLogger } from '../../src/logging/create-logger.js';
import { MetricsRegistry } from '../../src/metrics/metrics-registry.js';
import { StageWorker, type TaskContext, type TaskHandler } from '../../src/tasks/stage-worker.js';
import { TaskCompletionWatcher } from '../../src/tasks/task-completion-watcher.js';
import { PermanentTaskError } from '../../src/tasks/task-errors.js';
import { finishTask, loadTask, recordTask } from '../../src/tasks/task-records.js';

const logger = createServiceLogger({ service: 'test', version: '0', level: 'silent' });

class ScriptedHandler implements TaskHandler {
  readonly kind = 'echo';
  readonly calls: TaskContext[] = [];
  // Per task id: what each attempt does ('ok' | 'transient' | 'permanent' | a promise to wait on).
  readonly script = new Map<string, (string | Promise<void>)[]>();

  async handle(ctx: TaskContext): Promise<Record<string, unknown>> {
    this.calls.push(ctx);
    const step = this.script.get(ctx.task.taskId)?.shift() ?? 'ok';
    if (step === 'transient') throw new Error('database hiccup');
    if (step === 'outage')
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:5432'), { code: 'ECONNREFUSED' });
    if (step === 'permanent') throw new PermanentTaskError('bad input: field x', 'invalid-argument');
    if (step instanceof Promise) await step;
    return { echoed: ctx.payload as Record<string, unknown>, attempt: ctx.attempt };
  }
}

describe('StageWorker (PostgreSQL + NATS)', () => {
  const prefix = `int_worker_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let bus: NatsBus;
  let watcher: TaskCompletionWatcher;
  let worker: StageWorker;
  const handler = new ScriptedHandler();
  let n = 0;

  const send = async (payload: Record<string, unknown>, kind = 'echo') => {
    const taskId = `${prefix}:t${++n}`;
    const wait = watcher.wait(taskId, 30_000);
    await bus.enqueue('summarize', {
      id: taskId,
      data: encodeTask(createJsonTask({ taskId, runId: '', stage: 'summarize', kind, payload })),
    });
    return { taskId, event: wait.done };
  };

  beforeAll(async () => {
    db = await createThrowawayDatabase('int_stage_worker');
    ds = await createDataSource({ url: db.url });
    bus = await createNatsBus({ prefix });
    watcher = new TaskCompletionWatcher(bus, logger);
    await watcher.start();
    worker = new StageWorker(
      { bus, dataSource: ds, logger, metrics: new MetricsRegistry() },
      {
        stage: 'summarize',
        handlers: [handler],
        concurrency: 4,
        maxDeliver: 3,
        backoffMs: [20],
        ackWaitMs: 5000,
        transientBackoffMs: [20],
      },
    );
    await worker.start();
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await watcher?.stop();
    await bus?.deleteStreams();
    await bus?.close();
    await ds?.destroy();
    await db?.drop();
  }, 60_000);

  it('runs a task, stores its result and announces it', async () => {
    const { taskId, event } = await send({ text: 'hello' });
    const done = await event;
    expect(done).toMatchObject({
      taskId,
      stage: 'summarize',
      kind: 'echo',
      status: TaskStatus.TASK_STATUS_DONE,
    });
    const row = await loadTask(ds, taskId);
    expect(row).toMatchObject({
      status: 'done',
      attempts: 1,
      error: null,
      result: { echoed: { text: 'hello' }, attempt: 1 },
    });
  });

  it('retries a transient failure and records the attempts', async () => {
    const taskId = `${prefix}:t${n + 1}`;
    handler.script.set(taskId, ['transient', 'ok']);
    const sent = await send({ text: 'again' });
    expect(sent.taskId).toBe(taskId);
    expect((await sent.event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(await loadTask(ds, taskId)).toMatchObject({ status: 'done', attempts: 2, result: { attempt: 2 } });
  });

  it('records a permanent failure once, with its error code, without retrying', async () => {
    const taskId = `${prefix}:t${n + 1}`;
    handler.script.set(taskId, ['permanent']);
    const { event } = await send({});
    const failed = await event;
    expect(failed).toMatchObject({ status: TaskStatus.TASK_STATUS_FAILED, error: 'bad input: field x' });
    expect(await loadTask(ds, taskId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      result: { errorCode: 'invalid-argument' },
    });
    expect(handler.calls.filter((c) => c.task.taskId === taskId)).toHaveLength(1);
  });

  it('does not rerun a task that already finished, only re-announces it', async () => {
    const taskId = `${prefix}:t${n + 1}`;
    await recordTask(ds, { id: taskId, runId: null, stage: 'summarize', kind: 'echo', payload: {} });
    await finishTask(ds, taskId, 'done', { from: 'earlier' }, null);
    const { event } = await send({});
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(handler.calls.some((c) => c.task.taskId === taskId)).toBe(false);
    expect((await loadTask(ds, taskId))?.result).toEqual({ from: 'earlier' });
  });

  it('dead-letters a task that keeps failing, marking it dead', async () => {
    const taskId = `${prefix}:t${n + 1}`;
    handler.script.set(taskId, ['transient', 'transient', 'transient']);
    const { event } = await send({});
    expect(await event).toMatchObject({ status: TaskStatus.TASK_STATUS_DEAD });
    expect((await loadTask(ds, taskId))?.error).toBe('gave up after 3 attempts: database hiccup');
    for (let i = 0; i < 50 && !(await bus.deadLetters('summarize')).some((d) => d.id === taskId); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await bus.deadLetters('summarize')).map((d) => d.id)).toContain(taskId);
  });

  it('does not count attempts cut short by an outage, however many', async () => {
    const taskId = `${prefix}:t${n + 1}`;
    handler.script.set(taskId, ['outage', 'outage', 'outage', 'outage', 'outage', 'ok']);
    const { event } = await send({});
    expect((await event)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(await loadTask(ds, taskId)).toMatchObject({ status: 'done', attempts: 1, result: { attempt: 1 } });
    expect(handler.calls.filter((c) => c.task.taskId === taskId)).toHaveLength(6);
    expect((await bus.deadLetters('summarize')).map((d) => d.id)).not.toContain(taskId);
  });

  it('stop() waits for the task in flight, which still persists and acks', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const taskId = `${prefix}:t${n + 1}`;
    handler.script.set(taskId, [gate]);
    const { event } = await send({ slow: true });
    for (let i = 0; i < 100 && !handler.calls.some((c) => c.task.taskId === taskId); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
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
    expect(await bus.pending('summarize')).toBe(0);
  });
});
