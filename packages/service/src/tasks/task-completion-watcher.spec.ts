import { describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { encodeTaskCompleted, TaskCompleted, TaskStatus } from '@precis/contracts';
import { TASK_COMPLETED_SUBJECT } from '@precis/engine';
import { createServiceLogger } from '../logging/create-logger.js';
import { TaskCompletionWatcher } from './task-completion-watcher.js';

const logger = createServiceLogger({ service: 't', version: '0', level: 'silent' });
const event = (taskId: string) =>
  TaskCompleted.fromPartial({
    taskId,
    stage: 'ingest',
    kind: 'import-dataset',
    status: TaskStatus.TASK_STATUS_DONE,
  });

describe('TaskCompletionWatcher (in-process bus)', () => {
  it('resolves every waiter of a task with its event, and only that task', async () => {
    const bus = createInProcessBus();
    const watcher = new TaskCompletionWatcher(bus, logger);
    await watcher.start();
    const a1 = watcher.wait('a', 10_000);
    const a2 = watcher.wait('a', 10_000);
    const b = watcher.wait('b', 10_000);
    await bus.publish(TASK_COMPLETED_SUBJECT, new Uint8Array([0xff, 0xff]));
    await bus.publish(TASK_COMPLETED_SUBJECT, encodeTaskCompleted(event('a')));
    expect((await a1.done)?.taskId).toBe('a');
    expect((await a2.done)?.status).toBe(TaskStatus.TASK_STATUS_DONE);
    expect(watcher.waiting).toBe(1);
    b.cancel();
    expect(await b.done).toBeNull();
    await watcher.stop();
    await bus.close();
  });

  it('resolves null on timeout, on abort and on stop', async () => {
    const bus = createInProcessBus();
    const watcher = new TaskCompletionWatcher(bus, logger);
    await watcher.start();
    const timedOut = watcher.wait('x', 1);
    const abort = new AbortController();
    const aborted = watcher.wait('y', 10_000, abort.signal);
    const stopped = watcher.wait('z', 10_000);
    abort.abort();
    expect(await timedOut.done).toBeNull();
    expect(await aborted.done).toBeNull();
    await watcher.stop();
    expect(await stopped.done).toBeNull();
    expect(watcher.waiting).toBe(0);
    await bus.close();
  });
});
