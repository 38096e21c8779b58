import { wordCount } from '@precis/text';
import type { PlanInput } from './hierarchical.js';
import { promptTokens } from './prompt-tokens.js';
import { type StepPlan, StrategyError, type SummaryStep } from './steps.js';

function step(
  input: PlanInput,
  key: string,
  role: SummaryStep['role'],
  vars: Record<string, string | number>,
  stepInput: SummaryStep['input'],
  index: number,
): SummaryStep {
  const template =
    role === 'initial'
      ? input.templates.initial
      : role === 'update'
        ? input.templates.update
        : role === 'compress'
          ? input.templates.compress
          : input.templates.clean;
  return {
    key,
    role,
    template,
    vars,
    budgetWords: role === 'clean' ? Math.max(1, wordCount(String(vars.summary))) : input.params.runningBudget,
    input: stepInput,
    index,
    promptTokens: promptTokens(template, vars, input.params.encoding),
  };
}

// Incremental updating (METHODS.md §1.3) as a pure planner: initial summary of chunk 0, one
// update per later chunk, and a compression whenever the running summary exceeds G_n words.
// Every step depends on the previous one, so at most one step is ready at a time.
export function planIncremental(input: PlanInput): StepPlan {
  const { chunks, results, params } = input;
  if (chunks.length === 0) throw new StrategyError('the document has no chunks to summarize');
  const budget = params.runningBudget;

  let key = 'i/0';
  let running = results.get(key);
  if (running === undefined) {
    return {
      status: 'steps',
      steps: [step(input, key, 'initial', { text: chunks[0]!, budget }, { text: chunks[0] }, 0)],
    };
  }
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) {
      key = `i/u/${i}`;
      const updated = results.get(key);
      if (updated === undefined) {
        const vars = { summary: running, text: chunks[i]!, budget };
        return {
          status: 'steps',
          steps: [step(input, key, 'update', vars, { summary: running, text: chunks[i] }, i)],
        };
      }
      running = updated;
    }
    if (wordCount(running) > budget) {
      key = `i/c/${i}`;
      const compressed = results.get(key);
      if (compressed === undefined) {
        return {
          status: 'steps',
          steps: [step(input, key, 'compress', { summary: running, budget }, { summary: running }, i)],
        };
      }
      running = compressed;
    }
  }
  if (!params.artifactRemoval) return { status: 'done', summary: running, finalKey: key };
  const cleaned = results.get('i/clean');
  if (cleaned !== undefined) return { status: 'done', summary: cleaned, finalKey: 'i/clean' };
  return {
    status: 'steps',
    steps: [step(input, 'i/clean', 'clean', { summary: running }, { summary: running }, chunks.length)],
  };
}
