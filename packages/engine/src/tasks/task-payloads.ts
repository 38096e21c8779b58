import type { StepRole } from '@precis/strategies';

// What a summarize task carries: one strategy step, with the template named by id and version
// (the worker refuses a version it does not have, rather than silently using another prompt).
export interface SummarizeStepPayload {
  type: 'summary-step';
  system: string;
  documentId: string;
  step: {
    key: string;
    role: StepRole;
    templateId: string;
    templateVersion: string;
    vars: Record<string, string | number>;
    budgetWords: number;
    input: { text?: string; summaries?: string[]; context?: string; summary?: string };
    level?: number;
    index?: number;
    promptTokens: number;
  };
}

export interface SummarizeStepResult {
  text: string;
  generations: number;
  cut: boolean;
  producer: string;
  [key: string]: unknown;
}

// A batch of summary sentences for the BooookScore annotator (1-based sentence numbers).
export interface AnnotateCoherencePayload {
  type: 'booookscore-batch';
  system: string;
  documentId: string;
  summaryId: string;
  metricIndex: number;
  sentences: { n: number; text: string }[];
}

export interface CoherenceVerdictRecord {
  n: number;
  confusing: boolean;
  questions: string[];
  types: string[];
}

export interface AnnotateCoherenceResult {
  judge: string;
  templateVersion: string | null;
  verdicts: CoherenceVerdictRecord[];
  [key: string]: unknown;
}

export interface ScoreRunPayload {
  type: 'score-run';
}

export type TaskPayload =
  | SummarizeStepPayload
  | AnnotateCoherencePayload
  | ScoreRunPayload
  | OpinionSummaryPayload
  | GevalStepsPayload
  | JudgeDimensionPayload;

// Strategy 'opinion': one product's reviews -> one paragraph (result: SummarizeStepResult).
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
