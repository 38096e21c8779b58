// Dimension judges: one verify task per (summary, dimension); G-Eval steps once per dimension.
export const dimensionTaskId = (
  runId: string,
  system: string,
  documentId: string,
  metric: string,
  dimension: string,
) => `${runId}:verify:${system}:${documentId}:${metric}:${dimension}`;

export const gevalStepsTaskId = (runId: string, metric: string, dimension: string) =>
  `${runId}:verify:*geval-steps:${metric}:${dimension}`;
