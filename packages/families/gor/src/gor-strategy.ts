import {
  retrieveTaskId,
  type Strategy,
  type StrategyUnit,
  SYSTEM_SCOPE,
  summarizeTaskId,
  systemTaskId,
} from '@precis/engine/family';
import { GOR_STRATEGIES, type GorStrategy, gorParams, gorSettings } from './gor-spec.js';
import {
  type GorStep,
  type GorStepPayload,
  type RankedNodes,
  type RecordsGraph,
  type SimulatedQueries,
  STEP_ROLES,
  type TrainedRankings,
} from './payloads.js';

function stepTask(u: StrategyUnit, step: GorStep, extra: Partial<GorStepPayload> = {}) {
  const payload: GorStepPayload = {
    type: 'gor-step',
    system: u.system.name,
    documentId: u.documentId,
    step: { key: step, role: STEP_ROLES[step] },
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

// One model per system, trained on the graphs of all its meetings (METHODS.md §5.6: batches of
// graphs, in-batch negatives from the other graphs).
function trainTask(u: StrategyUnit) {
  const payload: GorStepPayload = {
    type: 'gor-step',
    system: u.system.name,
    documentId: SYSTEM_SCOPE,
    step: { key: 'train', role: STEP_ROLES.train },
  };
  return {
    id: systemTaskId(u.runId, u.system.name, 'train'),
    runId: u.runId,
    stage: 'summarize' as const,
    kind: 'gor-train',
    payload: { ...payload },
  };
}

// The per-meeting steps of each strategy, in order (trained GoR also waits for its training).
function stepsOf(strategy: GorStrategy, training: boolean): GorStep[] {
  switch (strategy) {
    case 'gor':
      return training ? ['simulate', 'graph', 'summary'] : ['simulate', 'graph', 'rank', 'summary'];
    case 'thought-retriever':
      return ['simulate', 'graph', 'rank', 'summary'];
    case 'rag':
      return ['rank', 'summary'];
    case 'context-window':
      return ['summary'];
  }
}

const parsed = <T>(results: ReadonlyMap<string, string>, step: string): T | undefined => {
  const text = results.get(step);
  return text === undefined ? undefined : (JSON.parse(text) as T);
};

// The nodes this meeting's summary reads: its own rank step's, or the system's trained model's.
function rankedOf(u: StrategyUnit): RankedNodes | undefined {
  const own = parsed<RankedNodes>(u.results, 'rank');
  if (own) return own;
  const trained = parsed<TrainedRankings>(u.shared, 'train');
  const nodes = trained?.rankings[u.documentId];
  return trained && nodes ? { nodes, ranker: trained.ranker } : undefined;
}

// One step at a time: each takes what the earlier ones gave (queries, graph, ranked nodes).
function gorStrategy(name: GorStrategy): Strategy {
  return {
    name,
    datasetKinds: ['qmsum'],
    params: gorParams,
    async plan(u) {
      const training = gorSettings(u.system).training;
      const summary = u.results.get('summary');
      if (summary !== undefined) return { kind: 'summary', text: summary, finalStep: 'summary' };
      const next = stepsOf(name, training).find((s) => !u.results.has(s))!;
      const ranked = rankedOf(u);
      if (name === 'gor' && training && next === 'summary' && !ranked)
        return { kind: 'await', after: 'graph', task: trainTask(u) };
      const queries = parsed<SimulatedQueries>(u.results, 'simulate');
      const graph = parsed<RecordsGraph>(u.results, 'graph');
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
