import {
  type ChatMessage,
  type OpinionDimensionId,
  type PromptTemplate,
  renderTemplate,
} from '@precis/prompts';
import { formatReviews, OPINION_DIMENSIONS_DEFINED } from './dimension-definitions.js';
import type { OpinionJudgeInput } from './op-i.template.js';

// G-Eval: the judge first writes its own evaluation steps from the task and the criteria (once
// per dimension; the caller stores and reuses them), then scores with those steps embedded.
const TASK =
  'You will be given a set of product reviews and a summary written from them. Your job is to rate the summary on one criterion.';

function stepsTemplate(dimension: OpinionDimensionId): PromptTemplate {
  const def = OPINION_DIMENSIONS_DEFINED[dimension];
  return {
    id: `opinion.geval.steps.${dimension}`,
    version: '1',
    description: `G-Eval: the judge writes evaluation steps for ${def.name.toLowerCase()}`,
    user: `${TASK}

Evaluation criterion
${def.name} (1-5): ${def.definition}

Before any summary is rated, write the evaluation steps an annotator should follow to rate a summary on this criterion. Write 3 to 6 short steps as a numbered list (1., 2., 3., ...), one step per line, and nothing else.`,
  };
}

function scoreTemplate(dimension: OpinionDimensionId): PromptTemplate {
  const def = OPINION_DIMENSIONS_DEFINED[dimension];
  return {
    id: `opinion.geval.score.${dimension}`,
    version: '1',
    description: `G-Eval: rate ${def.name.toLowerCase()} following judge-written evaluation steps`,
    user: `${TASK}

Evaluation criterion
${def.name} (1-5): ${def.definition}

Evaluation steps
{{steps}}

Reviews
{{reviews}}

Summary
{{summary}}

Follow the evaluation steps and explain briefly. End your answer with the rating as a single integer from 1 to 5 inside score tags, for example <score>3</score>, and write nothing after it.`,
  };
}

const DIMENSIONS = Object.keys(OPINION_DIMENSIONS_DEFINED) as OpinionDimensionId[];

export const GEVAL_STEPS_TEMPLATES: Record<OpinionDimensionId, PromptTemplate> = Object.fromEntries(
  DIMENSIONS.map((d) => [d, stepsTemplate(d)]),
) as Record<OpinionDimensionId, PromptTemplate>;

export const GEVAL_SCORE_TEMPLATES: Record<OpinionDimensionId, PromptTemplate> = Object.fromEntries(
  DIMENSIONS.map((d) => [d, scoreTemplate(d)]),
) as Record<OpinionDimensionId, PromptTemplate>;

export function renderGevalStepsPrompt(
  dimension: OpinionDimensionId,
  template: PromptTemplate = GEVAL_STEPS_TEMPLATES[dimension],
): ChatMessage[] {
  return renderTemplate(template, {});
}

// `steps` are the parsed steps of the steps prompt; they are renumbered for the scoring prompt.
export function renderGevalScorePrompt(
  dimension: OpinionDimensionId,
  steps: readonly string[],
  input: OpinionJudgeInput,
  template: PromptTemplate = GEVAL_SCORE_TEMPLATES[dimension],
): ChatMessage[] {
  return renderTemplate(template, {
    steps: steps.map((s, i) => `${i + 1}. ${s}`).join('\n'),
    reviews: formatReviews(input.reviews),
    summary: input.summary.trim(),
  });
}
