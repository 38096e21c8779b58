import type { Bus, WorkMessage } from '@precis/bus';
import { EVENTS, encodeTask, eventSubject } from '@precis/contracts';
import type { RunEventSink, RunStage, TaskDispatcher } from '../ports.js';

export const TASK_FINISHED_EVENT = eventSubject(EVENTS.taskCompleted);

export interface TaskFinishedEvent {
  runId: string;
  taskId: string;
}

// A run task on its stage's queue: the precis.v1.Task envelope every queue carries, naming the
// task and its kind; the payload stays in the task's row (the worker claims it from there).
// `messageId` differs from the task id only for a re-sent message (see the reconciler).
export function runTaskMessage(
  task: { id: string; runId: string; stage: RunStage; kind: string },
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
    async dispatch(stage: RunStage, taskId: string, runId: string, kind: string) {
      await bus.enqueue(stage, runTaskMessage({ id: taskId, runId, stage, kind }));
    },
  };
}

export function busEventSink(bus: Bus): RunEventSink {
  return {
    async taskFinished(runId: string, taskId: string) {
      await bus.publish(TASK_FINISHED_EVENT, { runId, taskId });
    },
  };
}
