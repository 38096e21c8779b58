// The GoR steps, in order; each is one task per (system, meeting) unit, except training: one task
// per system over all its meetings' graphs (METHODS.md §5).
export const GOR_STEPS = ['simulate', 'graph', 'train', 'rank', 'summary'] as const;
export type GorStep = (typeof GOR_STEPS)[number];

export const STEP_ROLES: Record<GorStep, string> = {
  simulate: 'query simulation',
  graph: 'graph of records',
  train: 'GoR training',
  rank: 'ranking',
  summary: 'summary',
};

export interface SimulatedQueries {
  // Each question with the chunk it was made from (the self-supervised pair).
  queries: { question: string; chunk: number }[];
  simulator: string;
}

export interface RecordsGraph {
  // Response i is node (chunks + i); retrieved[i] are the nodes its query was given.
  responses: string[];
  retrieved: number[][];
  embedder: string;
  responder: string;
}

// The nodes handed to the summarizer, best first (chunk i is node i, response j node chunks + j).
export interface RankedNodes {
  nodes: number[];
  ranker: string;
}

// The system's trained model's top K per meeting (by document id).
export interface TrainedRankings {
  rankings: Record<string, number[]>;
  ranker: string;
}

export interface GorStepPayload {
  type: 'gor-step';
  system: string;
  documentId: string;
  // As the engine's trace reads a step: its key and what it does.
  step: { key: GorStep; role: string };
  queries?: SimulatedQueries;
  graph?: RecordsGraph;
  ranked?: RankedNodes;
}
