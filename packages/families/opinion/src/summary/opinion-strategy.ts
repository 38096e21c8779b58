import { int, type Strategy, type TaskKind, taskSystem } from '@precis/engine/family';
import type { OpinionSummaryPayload } from '../payloads.js';
import { OPINION_STEP_KEY, opinionSummaryTask, summarizeOpinion } from './opinion-summary.js';

// What strategy 'opinion' adds to `systems[].params`: words of the one-paragraph summary
// (default DEFAULT_OPINION_BUDGET_WORDS; engines cut to it).
export const opinionParams = {
  budgetWords: int().positive().optional(),
};

// Strategy 'opinion': one task per product, its reviews -> one paragraph.
export const opinionStrategy: Strategy = {
  name: 'opinion',
  datasetKinds: ['summeval-op'],
  params: opinionParams,
  async plan(u) {
    const text = u.results.get(OPINION_STEP_KEY);
    if (text === undefined)
      return {
        kind: 'steps',
        tasks: [opinionSummaryTask(u.runId, u.system, u.documentId, u.spec.templateOverrides)],
      };
    return { kind: 'summary', text, finalStep: OPINION_STEP_KEY };
  },
};

export const opinionSummaryKind: TaskKind = {
  kind: 'opinion-summary',
  stage: 'summarize',
  async handle(ctx, ref, raw, spec) {
    const payload = raw as unknown as OpinionSummaryPayload;
    const system = taskSystem(spec, payload.system, ref.id);
    return { result: await summarizeOpinion(ctx, ref, payload, system, spec.cache, spec.templateOverrides) };
  },
};
