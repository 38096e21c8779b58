import type { StepRole } from './strategies/steps.js';

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

export type { SummaryTaskResult as SummarizeStepResult } from '@precis/engine/family';

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
