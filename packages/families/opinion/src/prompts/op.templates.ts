import {
  type ChatMessage,
  type OpinionDimensionId,
  type PromptTemplate,
  renderTemplate,
} from '@precis/prompts';
import { formatReviews, OPINION_DIMENSIONS_DEFINED } from './dimension-definitions.js';
import type { OpinionJudgeInput } from './op-i.template.js';

// Op (dimension-dependent): one hand-written prompt per dimension, each with its own rubric
// and evaluation steps. Only the rubric and the steps differ; the frame is shared.
interface OpSpec {
  rubric: [string, string, string, string, string];
  steps: string[];
}

const SPECS: Record<OpinionDimensionId, OpSpec> = {
  fluency: {
    rubric: [
      'errors on almost every sentence make the summary hard to read',
      'frequent grammar, spelling or wording errors that slow the reader down',
      'some noticeable errors or awkward phrasing, but the meaning stays clear',
      'reads well, with one or two small slips',
      'no errors; natural, well-chosen wording throughout',
    ],
    steps: [
      'Read the summary sentence by sentence.',
      'Note each grammar, spelling or punctuation error and each awkward or wrong word choice.',
      'Judge how much these problems get in the way of reading.',
    ],
  },
  coherence: {
    rubric: [
      'a jumble of statements with no visible order or connection',
      'mostly disconnected statements; the order seems arbitrary',
      'partly organized, with abrupt jumps between topics',
      'well organized, with a few weak transitions',
      'a well-structured paragraph where each sentence leads to the next',
    ],
    steps: [
      'Identify the topics the summary covers and the order in which it covers them.',
      'Check whether related points are grouped and whether transitions connect them.',
      'Decide whether the text reads as one organized body or as a list of unrelated facts.',
    ],
  },
  relevance: {
    rubric: [
      'mostly minor or isolated remarks; the main opinions are missing',
      'several unimportant details or repetitions crowd out the main opinions',
      'the main opinions are there, mixed with some unimportant details or repetition',
      'focused on the shared opinions, with a small digression or repetition',
      'only the important, widely shared opinions, each said once',
    ],
    steps: [
      'From the reviews, list the opinions that several reviewers share.',
      'For each statement in the summary, decide whether it is one of those shared opinions or a minor, isolated remark.',
      'Note any statement the summary repeats.',
      'Weigh how much of the summary is spent on what matters.',
    ],
  },
  faithfulness: {
    rubric: [
      'most statements are invented or contradict the reviews',
      'several statements are unsupported or overgeneralize a single review',
      'some statements are unsupported or overstated',
      'almost everything is supported; one statement is slightly overstated',
      'every statement is supported by the reviews and stated with the right scope',
    ],
    steps: [
      'Split the summary into its individual statements.',
      'For each statement, find the review text that supports it, or note that none does.',
      'For supported statements, check whether the summary claims more reviewers agree than actually do.',
      'Count the unsupported and overgeneralized statements.',
    ],
  },
  aspect_coverage: {
    rubric: [
      'none of the main aspects of the reviews is mentioned',
      'only one or two of the main aspects are mentioned',
      'about half of the main aspects are mentioned',
      'most of the main aspects are mentioned; one is missing',
      'every main aspect of the reviews is mentioned',
    ],
    steps: [
      'List the aspects of the product the reviews discuss, and mark the ones discussed by several reviewers as main aspects.',
      'List the aspects the summary mentions.',
      'Count how many of the main aspects the summary covers.',
    ],
  },
  sentiment_consistency: {
    rubric: [
      'the sentiment is wrong for almost every aspect mentioned',
      'the sentiment is wrong for several of the aspects mentioned',
      'the sentiment matches for some aspects and not for others',
      'the sentiment matches for nearly every aspect, with one slight mismatch',
      'the sentiment matches the reviewers\u2019 consensus for every aspect mentioned',
    ],
    steps: [
      'List the aspects the summary mentions and the sentiment it gives each one.',
      'For each of these aspects, determine the consensus sentiment of the reviews (positive, negative or mixed).',
      'Compare the two for every aspect and count the mismatches.',
    ],
  },
  specificity: {
    rubric: [
      'entirely generic; it could describe any product',
      'mostly generic, with one concrete detail',
      'a mix of generic and concrete opinions',
      'mostly concrete opinions with a few generic phrases',
      'concrete, detailed opinions throughout (what is good or bad, and why)',
    ],
    steps: [
      'Go through the opinions stated in the summary.',
      'For each one, decide whether it is concrete (names a specific property, detail or reason) or generic (could be said of any product).',
      'Judge the balance between concrete and generic opinions.',
    ],
  },
};

function buildTemplate(dimension: OpinionDimensionId): PromptTemplate {
  const def = OPINION_DIMENSIONS_DEFINED[dimension];
  const spec = SPECS[dimension];
  const rubric = spec.rubric.map((text, i) => `${i + 1} - ${text}`).join('\n');
  const steps = [...spec.steps, `Choose the rating from the scale above that best matches what you found.`]
    .map((text, i) => `${i + 1}. ${text}`)
    .join('\n');
  return {
    id: `opinion.judge.op.${dimension}`,
    version: '1',
    description: `Hand-written opinion-summary judge for ${def.name.toLowerCase()} (own rubric and steps, 1-5 score)`,
    system: 'You are a careful evaluator of summaries of product reviews.',
    user: `Task: rate the ${def.name.toLowerCase()} of a summary written from the product reviews below.

${def.name}: ${def.definition}

Rating scale (integers only)
${rubric}

Reviews
{{reviews}}

Summary
{{summary}}

How to evaluate
${steps}

Write your reasoning first. End your answer with the rating as a single integer from 1 to 5 inside score tags, for example <score>3</score>, and write nothing after it.`,
  };
}

export const OP_TEMPLATES: Record<OpinionDimensionId, PromptTemplate> = Object.fromEntries(
  Object.keys(SPECS).map((d) => [d, buildTemplate(d as OpinionDimensionId)]),
) as Record<OpinionDimensionId, PromptTemplate>;

export function renderOpPrompt(
  dimension: OpinionDimensionId,
  input: OpinionJudgeInput,
  template: PromptTemplate = OP_TEMPLATES[dimension],
): ChatMessage[] {
  return renderTemplate(template, { reviews: formatReviews(input.reviews), summary: input.summary.trim() });
}
