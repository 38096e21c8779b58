// What a summarize-stage task's payload names, whatever its strategy: its unit (system,
// document) and, for multi-step strategies, the step.
export interface SummaryTaskPayload {
  type: string;
  system: string;
  documentId: string;
  step?: { key: string; role: string; level?: number; input?: { summaries?: string[]; context?: string } };
  [key: string]: unknown;
}

// The step a multi-step strategy's task names (what a trace prints and groups it by).
export type SummaryTaskStep = NonNullable<SummaryTaskPayload['step']>;

// A summarize-stage task's result: the text a strategy's next steps (or the unit's summary) take.
export interface SummaryTaskResult {
  text: string;
  generations: number;
  cut: boolean;
  producer: string;
  [key: string]: unknown;
}
