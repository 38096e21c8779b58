import type { TaskKind } from '@precis/engine';
import type { GorStep } from '../payloads.js';
import { graphStep } from './graph-step.js';
import { rankStep } from './rank-step.js';
import { simulateStep } from './simulate-step.js';
import { loadStep, producerOf, type StepContext } from './step-context.js';
import { summaryStep } from './summary-step.js';
import { trainStep } from './train-step.js';

// Each step's result: `text` is what the strategy's next steps read (JSON for the inner steps).
const STEPS: Record<GorStep, (s: StepContext) => Promise<Record<string, unknown>>> = {
  simulate: async (s) => {
    const r = await simulateStep(s);
    return { text: JSON.stringify({ queries: r.queries, simulator: r.simulator }), ...r };
  },
  graph: async (s) => {
    const r = await graphStep(s);
    return { text: JSON.stringify(r), embedder: r.embedder, responder: r.responder };
  },
  train: async (s) => {
    const r = await trainStep(s);
    return { text: JSON.stringify({ nodes: r.nodes, ranker: r.ranker }), ...r };
  },
  rank: async (s) => {
    const r = await rankStep(s);
    return { text: JSON.stringify({ nodes: r.nodes, ranker: r.ranker }), ...r };
  },
  summary: summaryStep,
};

function stepKind(step: GorStep): TaskKind {
  return {
    kind: `gor-${step}`,
    stage: step === 'rank' ? 'retrieve' : 'summarize',
    async handle(ctx, ref, raw, spec) {
      const s = await loadStep(ctx, ref, raw, spec);
      const result = await STEPS[step](s);
      return { result: { generations: 1, cut: false, producer: producerOf(s, 'textrank'), ...result } };
    },
  };
}

export const gorStepKinds: TaskKind[] = (['simulate', 'graph', 'train', 'rank', 'summary'] as const).map(
  stepKind,
);
