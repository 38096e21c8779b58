import { cutToBudget, overBudget } from './budget.js';
import { StrategyError, type SummaryStep } from './steps.js';

export interface StepOutcome {
  text: string;
  // Generations made (1 + regenerations).
  generations: number;
  // True when the last generation was still over budget and was cut at a sentence end.
  cut: boolean;
}

// Runs one step: generate; while over the word budget, regenerate (up to maxRegenerations);
// then cut the last output at its last sentence end within the budget (METHODS.md §1.2).
export async function executeStep(
  step: SummaryStep,
  generate: (step: SummaryStep, attempt: number) => Promise<string>,
  maxRegenerations: number,
): Promise<StepOutcome> {
  let text = '';
  for (let attempt = 0; attempt <= maxRegenerations; attempt++) {
    text = (await generate(step, attempt)).trim();
    // An empty reply (a refusal, a content filter) is regenerated like an over-budget one.
    if (text !== '' && !overBudget(text, step.budgetWords))
      return { text, generations: attempt + 1, cut: false };
  }
  if (text === '') {
    throw new StrategyError(
      `step ${step.key} (${step.role}): the summarizer returned empty text in ${maxRegenerations + 1} generation(s)`,
    );
  }
  return { text: cutToBudget(text, step.budgetWords), generations: maxRegenerations + 1, cut: true };
}
