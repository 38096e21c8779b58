import type { PromptTemplate } from '@precis/prompts';

export type StepRole = 'chunk' | 'merge' | 'initial' | 'update' | 'compress' | 'clean' | 'full';

// One model call of a strategy: the unit that becomes a task. `key` is stable for the same
// document, params and earlier results, so re-planning after a restart finds finished steps.
export interface SummaryStep {
  key: string;
  role: StepRole;
  template: PromptTemplate;
  vars: Record<string, string | number>;
  // Word budget the output must respect (regenerate, then cut at the last sentence end).
  budgetWords: number;
  // Structured inputs, for offline engines and traces.
  input: {
    text?: string;
    summaries?: string[];
    context?: string;
    summary?: string;
  };
  level?: number;
  index?: number;
  // Tokens of the rendered prompt (all messages), as counted for the window check.
  promptTokens: number;
}

export type StepPlan =
  | { status: 'steps'; steps: SummaryStep[] }
  | { status: 'done'; summary: string; finalKey: string };

export type StrategyName = 'hierarchical' | 'incremental' | 'full-context';

export interface StrategyParams {
  // Model context window W, in tokens.
  contextWindow: number;
  // Hierarchical: word budget per level G_l (the last value repeats for deeper levels).
  levelBudgets: number[];
  // Incremental: running-summary budget G_n, in words.
  runningBudget: number;
  maxRegenerations: number;
  artifactRemoval: boolean;
  encoding: 'cl100k_base' | 'o200k_base';
  // Hierarchical merging stops with an error past this depth (budgets too large for W).
  maxLevels: number;
}

export const DEFAULT_STRATEGY_PARAMS: StrategyParams = {
  contextWindow: 8192,
  levelBudgets: [500],
  runningBudget: 900,
  maxRegenerations: 3,
  artifactRemoval: false,
  encoding: 'cl100k_base',
  maxLevels: 12,
};

export class StrategyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategyError';
  }
}
