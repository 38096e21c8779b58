import { retrieveTaskId, type Strategy, type StrategyUnit, summarizeTaskId } from '@precis/engine';
import { GOR_STRATEGIES, type GorStrategy, gorParams, gorSettings } from './gor-spec.js';
import type { GorStep, GorStepPayload, RankedNodes, RecordsGraph, SimulatedQueries } from './payloads.js';

function stepTask(u: StrategyUnit, step: GorStep, extra: Partial<GorStepPayload> = {}) {
  const payload: GorStepPayload = {
    type: 'gor-step',
    system: u.system.name,
    documentId: u.documentId,
    step,
    ...extra,
  };
  // Ranking with a retriever (or raw embeddings) is the retrieval service's work.
  const stage = step === 'rank' ? ('retrieve' as const) : ('summarize' as const);
  const id = (stage === 'retrieve' ? retrieveTaskId : summarizeTaskId)(
    u.runId,
    u.system.name,
    u.documentId,
    step,
  );
  return { id, runId: u.runId, stage, kind: `gor-${step}`, payload: { ...payload } };
}

// The steps each strategy takes, in order.
function stepsOf(strategy: GorStrategy, training: boolean): GorStep[] {
  switch (strategy) {
    case 'gor':
      return ['simulate', 'graph', training ? 'train' : 'rank', 'summary'];
    case 'thought-retriever':
      return ['simulate', 'graph', 'rank', 'summary'];
    case 'rag':
      return ['rank', 'summary'];
    case 'context-window':
      return ['summary'];
  }
}

const parsed = <T>(u: StrategyUnit, step: GorStep): T | undefined => {
  const text = u.results.get(step);
  return text === undefined ? undefined : (JSON.parse(text) as T);
};

// One step at a time: each takes what the earlier ones gave (queries, graph, ranked nodes).
function gorStrategy(name: GorStrategy): Strategy {
  return {
    name,
    datasetKinds: ['qmsum'],
    params: gorParams,
    async plan(u) {
      const steps = stepsOf(name, gorSettings(u.system).training);
      const summary = u.results.get('summary');
      if (summary !== undefined) return { kind: 'summary', text: summary, finalStep: 'summary' };
      const next = steps.find((s) => !u.results.has(s))!;
      const queries = parsed<SimulatedQueries>(u, 'simulate');
      const graph = parsed<RecordsGraph>(u, 'graph');
      const ranked = parsed<RankedNodes>(u, 'train') ?? parsed<RankedNodes>(u, 'rank');
      return {
        kind: 'steps',
        tasks: [
          stepTask(u, next, {
            ...(queries ? { queries } : {}),
            ...(graph ? { graph } : {}),
            ...(ranked ? { ranked } : {}),
          }),
        ],
      };
    },
  };
}

export const gorStrategies: Strategy[] = GOR_STRATEGIES.map(gorStrategy);
