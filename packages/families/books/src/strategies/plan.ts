import { planFullContext } from './full-context.js';
import { type PlanInput, planHierarchical } from './hierarchical.js';
import { planIncremental } from './incremental.js';
import type { StepPlan, StrategyName, SummaryStep } from './steps.js';

export function planStrategy(strategy: StrategyName, input: PlanInput): StepPlan {
  switch (strategy) {
    case 'hierarchical':
      return planHierarchical(input);
    case 'incremental':
      return planIncremental(input);
    case 'full-context':
      return planFullContext(input);
  }
}

// Runs a strategy to completion in this process: plan, run every ready step, record, repeat.
// The distributed runner does the same through tasks; this loop serves tests and tools.
export async function runStrategy(
  strategy: StrategyName,
  input: Omit<PlanInput, 'results'>,
  run: (step: SummaryStep) => Promise<string>,
  results: Map<string, string> = new Map(),
): Promise<{ summary: string; finalKey: string; results: Map<string, string> }> {
  for (;;) {
    const plan = planStrategy(strategy, { ...input, results });
    if (plan.status === 'done') return { summary: plan.summary, finalKey: plan.finalKey, results };
    const outputs = await Promise.all(plan.steps.map(run));
    plan.steps.forEach((s, i) => {
      results.set(s.key, outputs[i]!);
    });
  }
}
