import type { SystemSpec } from '@precis/engine/family';
import { DEFAULT_STRATEGY_PARAMS, type StrategyParams } from '../strategies/steps.js';
import { booksParamsOf } from './books-params.js';

// Offline engines have no context window of their own; this one keeps grouping comparable to a
// common model size.
export const ENGINE_CONTEXT_WINDOW = 8192;

export function strategyParams(
  system: SystemSpec,
  modelInfo?: (model: string) => { contextWindow: number } | undefined,
): StrategyParams {
  const p = booksParamsOf(system);
  let contextWindow = p.contextWindow;
  if (contextWindow === undefined) {
    if (system.model !== undefined) {
      const info = modelInfo?.(system.model);
      if (!info)
        throw new Error(`system ${system.name}: model "${system.model}" is not in the model registry`);
      contextWindow = info.contextWindow;
    } else {
      contextWindow = ENGINE_CONTEXT_WINDOW;
    }
  }
  return {
    ...DEFAULT_STRATEGY_PARAMS,
    contextWindow,
    levelBudgets: p.levelBudgets,
    runningBudget: p.runningBudget,
    maxRegenerations: p.maxRegenerations,
    artifactRemoval: p.artifactRemoval,
    encoding: p.encoding,
  };
}
