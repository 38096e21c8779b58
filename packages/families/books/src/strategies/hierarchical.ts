import { promptTokens } from './prompt-tokens.js';
import { type StepPlan, StrategyError, type StrategyParams, type SummaryStep } from './steps.js';
import type { StrategyTemplates } from './templates.js';

export interface PlanInput {
  chunks: readonly string[];
  results: ReadonlyMap<string, string>;
  params: StrategyParams;
  templates: StrategyTemplates;
}

export function levelBudget(params: StrategyParams, level: number): number {
  const budgets = params.levelBudgets;
  if (budgets.length === 0) throw new StrategyError('levelBudgets must name at least one budget');
  return budgets[Math.min(level, budgets.length - 1)]!;
}

const SEPARATOR = '\n\n';

function mergeStep(
  input: PlanInput,
  level: number,
  group: number,
  summaries: string[],
  context: string | undefined,
): SummaryStep {
  const { params, templates } = input;
  const budget = levelBudget(params, level);
  const template = context === undefined ? templates.merge : templates.mergeWithContext;
  const vars: Record<string, string | number> = { summaries: summaries.join(SEPARATOR), budget };
  if (context !== undefined) vars.context = context;
  return {
    key: `h/${level}/${group}`,
    role: 'merge',
    template,
    vars,
    budgetWords: budget,
    input: { summaries, context },
    level,
    index: group,
    promptTokens: promptTokens(template, vars, params.encoding),
  };
}

// Greedily takes as many consecutive summaries as fit: prompt + summaries + prior context must
// stay under W - G_l. A group always holds at least one summary.
function nextGroup(
  input: PlanInput,
  level: number,
  group: number,
  inputs: string[],
  start: number,
  context: string | undefined,
) {
  const limit = input.params.contextWindow - levelBudget(input.params, level);
  let end = start + 1;
  let step = mergeStep(input, level, group, inputs.slice(start, end), context);
  while (end < inputs.length) {
    const candidate = mergeStep(input, level, group, inputs.slice(start, end + 1), context);
    if (candidate.promptTokens >= limit) break;
    step = candidate;
    end++;
  }
  return { step, end };
}

function cleanOrDone(input: PlanInput, summary: string, finalKey: string): StepPlan {
  if (!input.params.artifactRemoval) return { status: 'done', summary, finalKey };
  const key = 'h/clean';
  const cleaned = input.results.get(key);
  if (cleaned !== undefined) return { status: 'done', summary: cleaned, finalKey: key };
  const vars = { summary };
  return {
    status: 'steps',
    steps: [
      {
        key,
        role: 'clean',
        template: input.templates.clean,
        vars,
        budgetWords: Math.max(1, summary.split(/\s+/).length),
        input: { summary },
        promptTokens: promptTokens(input.templates.clean, vars, input.params.encoding),
      },
    ],
  };
}

// Hierarchical merging (METHODS.md §1.2) as a pure planner: given the results so far, returns
// the steps that can run now (all missing chunk summaries in parallel; merge groups one at a
// time, since a later group's prompt holds the previous group's output) or the final summary.
export function planHierarchical(input: PlanInput): StepPlan {
  const { chunks, results, params, templates } = input;
  if (chunks.length === 0) throw new StrategyError('the document has no chunks to summarize');
  const budget0 = levelBudget(params, 0);
  const missing: SummaryStep[] = [];
  const level0: string[] = [];
  chunks.forEach((text, index) => {
    const key = `h/0/${index}`;
    const done = results.get(key);
    if (done !== undefined) {
      level0.push(done);
      return;
    }
    const vars = { text, budget: budget0 };
    missing.push({
      key,
      role: 'chunk',
      template: templates.chunk,
      vars,
      budgetWords: budget0,
      input: { text },
      level: 0,
      index,
      promptTokens: promptTokens(templates.chunk, vars, params.encoding),
    });
  });
  if (missing.length) return { status: 'steps', steps: missing };

  let inputs = level0;
  let finalKey = `h/0/0`;
  for (let level = 1; inputs.length > 1; level++) {
    if (level > params.maxLevels) {
      throw new StrategyError(
        `hierarchical merging did not converge within ${params.maxLevels} levels: the level budgets (${params.levelBudgets.join(', ')} words) leave too little room in the context window (${params.contextWindow} tokens); lower levelBudgets or raise contextWindow`,
      );
    }
    const outputs: string[] = [];
    let start = 0;
    for (let group = 0; start < inputs.length; group++) {
      const context = group === 0 ? undefined : outputs[group - 1];
      const { step, end } = nextGroup(input, level, group, inputs, start, context);
      const done = results.get(step.key);
      if (done === undefined) return { status: 'steps', steps: [step] };
      outputs.push(done);
      finalKey = step.key;
      start = end;
    }
    inputs = outputs;
  }
  return cleanOrDone(input, inputs[0]!, finalKey);
}
