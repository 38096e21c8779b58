import type { Bus, BusData } from '@precis/bus';
import { EVENTS, eventSubject, TaskCompleted, TaskStatus } from '@precis/contracts';
import type { TaskRow } from './task-records.js';

export const TASK_COMPLETED_SUBJECT = eventSubject(EVENTS.taskCompleted);

const STATUS: Record<string, TaskStatus> = {
  done: TaskStatus.TASK_STATUS_DONE,
  failed: TaskStatus.TASK_STATUS_FAILED,
  dead: TaskStatus.TASK_STATUS_DEAD,
};

export function taskCompletedFromRow(row: TaskRow, runId = row.runId ?? ''): TaskCompleted {
  return TaskCompleted.fromPartial({
    taskId: row.id,
    runId,
    stage: row.stage,
    kind: row.kind,
    status: STATUS[row.status] ?? TaskStatus.TASK_STATUS_UNSPECIFIED,
    error: row.error ?? '',
    finishTime: new Date(),
  });
}

// Sent after the final state is persisted; receivers re-read the row for the result.
export async function publishTaskCompleted(bus: Bus, event: TaskCompleted): Promise<void> {
  await bus.publish(TASK_COMPLETED_SUBJECT, TaskCompleted.encode(event).finish());
}

export function decodeTaskCompleted(data: BusData): TaskCompleted | null {
  if (!(data instanceof Uint8Array)) return null;
  try {
    return TaskCompleted.decode(data);
  } catch {
    return null;
  }
}
