import { retrieveTaskId, type Strategy, type StrategyUnit, summarizeTaskId } from '@precis/engine/family';
import { type PersphereStrategy, persphereParams, persphereSettings } from '../persphere-spec.js';
import { RETRIEVE_STEP, type RetrievePayload } from '../retrieve/retrieve-task.js';
import { orderDocuments } from './document-order.js';

export type SummaryMode = 'vanilla' | 'local' | 'editor';

export interface PersphereSummaryPayload {
  type: 'persphere-summary';
  system: string;
  documentId: string;
  mode: SummaryMode;
  // The documents shown (vanilla, local) or citable (editor), in prompt order.
  docIds: string[];
  // Editor: the local agents' XML summaries.
  locals?: string[];
}

function summarizeTask(
  u: StrategyUnit,
  step: string,
  payload: Omit<PersphereSummaryPayload, 'type' | 'system' | 'documentId'>,
) {
  const full: PersphereSummaryPayload = {
    type: 'persphere-summary',
    system: u.system.name,
    documentId: u.documentId,
    ...payload,
  };
  return {
    id: summarizeTaskId(u.runId, u.system.name, u.documentId, step),
    runId: u.runId,
    stage: 'summarize' as const,
    kind: 'persphere-summary',
    payload: { ...full },
  };
}

// HierSphere's split: k documents into m contiguous groups (sizes differ by at most one).
export function splitAmong<T>(items: readonly T[], agents: number): T[][] {
  const m = Math.max(1, Math.min(agents, items.length));
  return Array.from({ length: m }, (_, i) =>
    items.slice(Math.floor((i * items.length) / m), Math.floor(((i + 1) * items.length) / m)),
  );
}

// Retrieve, then one summary call (vanilla) or m local agents and an editorial merge (hiersphere).
function persphereStrategy(name: PersphereStrategy): Strategy {
  return {
    name,
    datasetKinds: ['persphere'],
    params: persphereParams,
    async plan(u) {
      const retrieved = u.results.get(RETRIEVE_STEP);
      if (retrieved === undefined) {
        const payload: RetrievePayload = {
          type: 'persphere-retrieve',
          system: u.system.name,
          documentId: u.documentId,
        };
        const id = retrieveTaskId(u.runId, u.system.name, u.documentId, RETRIEVE_STEP);
        return {
          kind: 'steps',
          tasks: [
            { id, runId: u.runId, stage: 'retrieve', kind: 'persphere-retrieve', payload: { ...payload } },
          ],
        };
      }
      const settings = persphereSettings(u.system);
      const docIds = orderDocuments(
        JSON.parse(retrieved) as string[],
        settings.order,
        `${u.spec.seed}:${u.documentId}`,
      );
      const final = name === 'vanilla' ? 'summary' : 'editor';
      const text = u.results.get(final);
      if (text !== undefined) return { kind: 'summary', text, finalStep: final };
      if (name === 'vanilla')
        return { kind: 'steps', tasks: [summarizeTask(u, 'summary', { mode: 'vanilla', docIds })] };
      const groups = splitAmong(docIds, settings.agents);
      const locals = groups.map((_, i) => u.results.get(`local-${i}`));
      if (locals.every((l) => l !== undefined))
        return {
          kind: 'steps',
          tasks: [summarizeTask(u, 'editor', { mode: 'editor', docIds, locals: locals as string[] })],
        };
      return {
        kind: 'steps',
        tasks: groups.flatMap((ids, i) =>
          locals[i] === undefined ? [summarizeTask(u, `local-${i}`, { mode: 'local', docIds: ids })] : [],
        ),
      };
    },
  };
}

export const vanillaStrategy = persphereStrategy('vanilla');
export const hierSphereStrategy = persphereStrategy('hiersphere');
