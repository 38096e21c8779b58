import { type TaskKind, taskSystem } from '@precis/engine/family';
import type { SummarizeStepPayload } from '../payloads.js';
import { SUMMARY_STEP_KIND } from './books-strategies.js';
import { summarizeStep } from './summarize-step.handler.js';

// One step of a book strategy (a chunk summary, a merge, an update, a compression...).
export const summaryStepTask: TaskKind = {
  kind: SUMMARY_STEP_KIND,
  stage: 'summarize',
  async handle(ctx, ref, raw, spec) {
    const payload = raw as unknown as SummarizeStepPayload;
    const system = taskSystem(spec, payload.system, ref.id);
    return { result: await summarizeStep(ctx, ref, payload, system, spec.cache, spec.templateOverrides) };
  },
};
