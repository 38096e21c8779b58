import type { Bus } from '@precis/bus';
import { EVENTS, eventSubject } from '@precis/contracts';
import type { RunEventSink, RunStage, TaskDispatcher } from '../ports.js';

export const TASK_FINISHED_EVENT = eventSubject(EVENTS.taskCompleted);

export interface TaskFinishedEvent {
  runId: string;
  taskId: string;
}

export function busDispatcher(bus: Bus): TaskDispatcher {
  return {
    async dispatch(stage: RunStage, taskId: string, runId: string) {
      await bus.enqueue(stage, { id: taskId, runId, data: { taskId } });
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
