import type { Bus, BusData, WorkMessage } from '@precis/bus';
import {
  decodeTaskCompleted,
  EVENTS,
  encodeTask,
  encodeTaskCompleted,
  eventSubject,
  type Stage,
  TaskCompleted,
  TaskStatus,
} from '@precis/contracts';
import type { FinalTaskStatus, RunEventSink, TaskDispatcher } from '../ports.js';

export const TASK_COMPLETED_SUBJECT = eventSubject(EVENTS.taskCompleted);

const STATUS: Record<FinalTaskStatus, TaskStatus> = {
  done: TaskStatus.TASK_STATUS_DONE,
  failed: TaskStatus.TASK_STATUS_FAILED,
  dead: TaskStatus.TASK_STATUS_DEAD,
};

// A precis.v1.TaskCompleted event, or null for anything else on the subject.
export function taskCompletedOf(data: BusData): TaskCompleted | null {
  if (!(data instanceof Uint8Array)) return null;
  try {
    return decodeTaskCompleted(data);
  } catch {
    return null;
  }
}

// A task on its stage's queue: the precis.v1.Task envelope every queue carries, naming the task
// and its kind; the payload stays in the task's row (the worker claims it from there).
// `messageId` differs from the task id only for a re-sent message (see the reconciler).
export function taskMessage(
  task: { id: string; runId: string; stage: Stage; kind: string },
  messageId = task.id,
): WorkMessage {
  return {
    id: messageId,
    runId: task.runId,
    data: encodeTask({
      taskId: task.id,
      runId: task.runId,
      stage: task.stage,
      kind: task.kind,
      payloadType: '',
      payload: Buffer.alloc(0),
      attempt: 0,
      enqueueTime: undefined,
    }),
  };
}

export function busDispatcher(bus: Bus): TaskDispatcher {
  return {
    async dispatch(stage, taskId, runId, kind) {
      await bus.enqueue(stage, taskMessage({ id: taskId, runId, stage, kind }));
    },
  };
}

export function busEventSink(bus: Bus): RunEventSink {
  return {
    async taskFinished(runId, taskId, detail = {}) {
      const event = TaskCompleted.fromPartial({
        taskId,
        runId,
        stage: detail.stage ?? '',
        kind: detail.kind ?? '',
        status: detail.status ? STATUS[detail.status] : TaskStatus.TASK_STATUS_UNSPECIFIED,
        error: detail.error ?? '',
        finishTime: new Date(),
      });
      await bus.publish(TASK_COMPLETED_SUBJECT, encodeTaskCompleted(event));
    },
  };
}
