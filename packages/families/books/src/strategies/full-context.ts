import { decodeTokens, encodeTokens, wordCount } from '@precis/text';
import type { PlanInput } from './hierarchical.js';
import { levelBudget } from './hierarchical.js';
import { promptTokens } from './prompt-tokens.js';
import { type StepPlan, StrategyError } from './steps.js';

// Full-context baseline: the whole document in one prompt, truncated so the prompt stays under
// W - G (G = the first level budget, reserved for the output).
export function planFullContext(input: PlanInput): StepPlan {
  const { chunks, results, params, templates } = input;
  const budget = levelBudget(params, 0);
  const done = results.get('f/0');
  if (done !== undefined) {
    if (!params.artifactRemoval) return { status: 'done', summary: done, finalKey: 'f/0' };
    const cleaned = results.get('f/clean');
    if (cleaned !== undefined) return { status: 'done', summary: cleaned, finalKey: 'f/clean' };
    const vars = { summary: done };
    return {
      status: 'steps',
      steps: [
        {
          key: 'f/clean',
          role: 'clean',
          template: templates.clean,
          vars,
          budgetWords: Math.max(1, wordCount(done)),
          input: { summary: done },
          promptTokens: promptTokens(templates.clean, vars, params.encoding),
        },
      ],
    };
  }
  const limit = params.contextWindow - budget;
  const overhead = promptTokens(templates.full, { text: '', budget }, params.encoding);
  const room = limit - overhead - 1;
  if (room <= 0) {
    throw new StrategyError(
      `the context window (${params.contextWindow} tokens) leaves no room for the document after the prompt and the ${budget}-word budget`,
    );
  }
  const tokens = encodeTokens(chunks.join('\n\n'), params.encoding);
  const text =
    tokens.length > room ? decodeTokens(tokens.slice(0, room), params.encoding) : chunks.join('\n\n');
  const vars = { text, budget };
  return {
    status: 'steps',
    steps: [
      {
        key: 'f/0',
        role: 'full',
        template: templates.full,
        vars,
        budgetWords: budget,
        input: { text },
        level: 0,
        index: 0,
        promptTokens: promptTokens(templates.full, vars, params.encoding),
      },
    ],
  };
}
