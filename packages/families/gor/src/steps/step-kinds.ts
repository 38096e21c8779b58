import { producerOf, type TaskKind } from '@precis/engine/family';
import type { GorStep, GorStepPayload } from '../payloads.js';
import { graphStep } from './graph-step.js';
import { rankStep } from './rank-step.js';
import { simulateStep } from './simulate-step.js';
import { loadStep, type StepContext } from './step-context.js';
import { summaryStep } from './summary-step.js';
import { trainSystem } from './train-step.js';

// Each step's result: `text` is what the strategy's next steps read (JSON for the inner steps);
// beside it only what the report and the logs need, not a second copy of the text's content.
const STEPS: Record<Exclude<GorStep, 'train'>, (s: StepContext) => Promise<Record<string, unknown>>> = {
  simulate: async (s) => {
    const r = await simulateStep(s);
    return {
      text: JSON.stringify({ queries: r.queries, simulator: r.simulator }),
      simulator: r.simulator,
      warnings: r.warnings,
    };
  },
  graph: async (s) => {
    const r = await graphStep(s);
    return { text: JSON.stringify(r), embedder: r.embedder, responder: r.responder };
  },
  rank: async (s) => {
    const r = await rankStep(s);
    return {
      text: JSON.stringify({ nodes: r.nodes, ranker: r.ranker }),
      ranker: r.ranker,
      warnings: r.warnings,
    };
  },
  summary: summaryStep,
};

function stepKind(step: Exclude<GorStep, 'train'>): TaskKind {
  return {
    kind: `gor-${step}`,
    stage: step === 'rank' ? 'retrieve' : 'summarize',
    async handle(ctx, ref, raw, spec) {
      const s = await loadStep(ctx, ref, raw, spec);
      const result = await STEPS[step](s);
      return { result: { generations: 1, cut: false, producer: producerOf(s.system), ...result } };
    },
  };
}

// Training is one task per system (documentId SYSTEM_SCOPE), over every meeting's graph.
const trainKind: TaskKind = {
  kind: 'gor-train',
  stage: 'summarize',
  async handle(ctx, ref, raw, spec) {
    const { rankings, ...rest } = await trainSystem(ctx, ref, raw as unknown as GorStepPayload, spec);
    const text = JSON.stringify({ rankings, ranker: rest.ranker });
    return { result: { generations: 1, cut: false, producer: 'gor:tensorflow.js', ...rest, text } };
  },
};

export const gorStepKinds: TaskKind[] = [
  ...(['simulate', 'graph', 'rank', 'summary'] as const).map(stepKind),
  trainKind,
];
