import {
  type ChatMessage,
  type OpinionDimensionId,
  type PromptTemplate,
  renderTemplate,
} from '@precis/prompts';
import { formatReviews, OPINION_DIMENSIONS_DEFINED } from './dimension-definitions.js';

// Op-I (dimension-independent): one fixed template; only the Metric block (name + definition)
// changes between dimensions, so one prompt serves every dimension.
export const OP_I_TEMPLATE: PromptTemplate = {
  id: 'opinion.judge.op-i',
  version: '1',
  description: 'Dimension-independent opinion-summary judge (swappable metric block, 1-5 score)',
  system: 'You are a careful evaluator of summaries of product reviews.',
  user: `Task: you are given a set of product reviews and a summary written from them. Judge how well the summary satisfies the metric described below, using the reviews as the input the summary was written from.

Metric
Name: {{metricName}}
Definition: {{metricDefinition}}

Rating scale (integers only)
1 - the summary does not satisfy the metric at all
2 - the summary satisfies the metric only in small part
3 - the summary satisfies the metric about half-way
4 - the summary satisfies the metric for the most part, with minor lapses
5 - the summary satisfies the metric completely

Reviews
{{reviews}}

Summary
{{summary}}

How to evaluate
1. Restate the metric in your own words and say what a summary must do to satisfy it.
2. Go through the summary step by step and explain, with reference to the reviews, where it satisfies the metric and where it does not.
3. Decide how far the summary satisfies the metric overall.
4. Choose the rating from the scale above that matches that judgement.

Write your reasoning first. End your answer with the rating as a single integer from 1 to 5 inside score tags, for example <score>3</score>, and write nothing after it.`,
};

export interface OpinionJudgeInput {
  reviews: readonly string[];
  summary: string;
}

export function renderOpIPrompt(
  dimension: OpinionDimensionId,
  input: OpinionJudgeInput,
  template: PromptTemplate = OP_I_TEMPLATE,
): ChatMessage[] {
  const def = OPINION_DIMENSIONS_DEFINED[dimension];
  return renderTemplate(template, {
    metricName: def.name,
    metricDefinition: def.definition,
    reviews: formatReviews(input.reviews),
    summary: input.summary.trim(),
  });
}
