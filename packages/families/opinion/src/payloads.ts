// Strategy 'opinion': one product's reviews -> one paragraph (result: SummaryTaskResult).
export interface OpinionSummaryPayload {
  type: 'opinion-summary';
  system: string;
  documentId: string;
  templateId: string;
  templateVersion: string;
}

// G-Eval: the judge writes the evaluation steps of one dimension, once per run and metric.
export interface GevalStepsPayload {
  type: 'geval-steps';
  metricIndex: number;
  dimension: string;
  templateId: string;
  templateVersion: string;
}

export interface GevalStepsResult {
  judge: string;
  template: string;
  steps: string[];
  attempts: number;
  [key: string]: unknown;
}

// One (summary, dimension) judgment: the task makes the metric's n sample calls.
export interface JudgeDimensionPayload {
  type: 'judge-dimension';
  system: string;
  documentId: string;
  summaryId: string;
  metricIndex: number;
  dimension: string;
  templateId: string;
  templateVersion: string;
  // G-Eval only: the steps written by the steps task (the same for every summary).
  steps?: string[];
}
