// Natural keys. Every id is derived from what the unit of work is, never random, so planning
// twice or persisting a redelivered result finds the existing row.
export const summaryId = (runId: string, system: string, documentId: string) =>
  `${runId}:${system}:${documentId}`;

export const summarizeTaskId = (runId: string, system: string, documentId: string, stepKey: string) =>
  `${runId}:summarize:${system}:${documentId}:${stepKey}`;

// A system-wide step's document slot: the step spans every document of its system.
export const SYSTEM_SCOPE = '*';

export const systemTaskId = (runId: string, system: string, stepKey: string) =>
  summarizeTaskId(runId, system, SYSTEM_SCOPE, stepKey);

// A strategy step run by the retrieval service (top-k documents of a unit's query).
export const retrieveTaskId = (runId: string, system: string, documentId: string, stepKey: string) =>
  `${runId}:retrieve:${system}:${documentId}:${stepKey}`;

export const verifyTaskId = (
  runId: string,
  system: string,
  documentId: string,
  metric: string,
  batch: number,
) => `${runId}:verify:${system}:${documentId}:${metric}:${batch}`;

export const scoreTaskId = (runId: string) => `${runId}:score`;

// A summarize task's unit (system, document): `<system>:<document id>`, as stored in tasks.unit.
export const unitKey = (system: string, documentId: string) => `${system}:${documentId}`;

// The unit of a strategy step's task id (summarize or retrieve; system names and document ids
// hold no ':'), else null.
export function unitOfTaskId(taskId: string): string | null {
  const parts = taskId.split(':');
  return (parts[1] === 'summarize' || parts[1] === 'retrieve') && parts.length >= 5
    ? `${parts[2]}:${parts[3]}`
    : null;
}

// Every task id above starts with its run's id.
export const runIdOfTask = (taskId: string) => taskId.slice(0, taskId.indexOf(':'));

export const judgmentId = (summary: string, metric: string, unit: number) => `${summary}:${metric}:${unit}`;

export const metricValueId = (runId: string, system: string, documentId: string | null, metric: string) =>
  `${runId}:${system}:${documentId ?? '*'}:${metric}`;
