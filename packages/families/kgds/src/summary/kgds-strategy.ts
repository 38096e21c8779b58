import {
  ConfigurationError,
  type Strategy,
  summarizeTaskId,
  type TaskKind,
  taskSystem,
} from '@precis/engine/family';
import { kgdsParams, kgdsSettings } from '../kgds-spec.js';
import type { KgdsPattern } from '../prompts/kgds.parsers.js';
import { summarizeKgds } from './summarize-kgds.js';

export const KGDS_STEP_KEY = 'kgds';

export interface KgdsSummaryPayload {
  type: 'kgds-summary';
  system: string;
  documentId: string;
  pattern: KgdsPattern;
}

// Strategies 'ebs-aos' and 'abs-aos': one summarize task per (system, sample); its result holds
// the parsed parts (EBS indices or ABS text, and the AOS) that the verifiers read.
function kgdsStrategy(pattern: KgdsPattern): Strategy {
  return {
    name: pattern,
    datasetKinds: ['kgds'],
    params: kgdsParams,
    async plan(u) {
      const text = u.results.get(KGDS_STEP_KEY);
      if (text !== undefined) return { kind: 'summary', text, finalStep: KGDS_STEP_KEY };
      const payload: KgdsSummaryPayload = {
        type: 'kgds-summary',
        system: u.system.name,
        documentId: u.documentId,
        pattern,
      };
      return {
        kind: 'steps',
        tasks: [
          {
            id: summarizeTaskId(u.runId, u.system.name, u.documentId, KGDS_STEP_KEY),
            runId: u.runId,
            stage: 'summarize',
            kind: 'kgds-summary',
            payload: { ...payload },
          },
        ],
      };
    },
  };
}

export const ebsAosStrategy = kgdsStrategy('ebs-aos');
export const absAosStrategy = kgdsStrategy('abs-aos');

export const kgdsSummaryKind: TaskKind = {
  kind: 'kgds-summary',
  stage: 'summarize',
  async handle(ctx, ref, raw, spec) {
    const payload = raw as unknown as KgdsSummaryPayload;
    const system = taskSystem(spec, payload.system, ref.id);
    const settings = kgdsSettings(system);
    if (settings.pattern !== payload.pattern)
      throw new ConfigurationError(
        `task ${ref.id}: system ${system.name} is now ${settings.pattern}; start a new run with --fresh`,
      );
    return { result: await summarizeKgds(ctx, ref, payload.documentId, system, settings, spec) };
  },
};
