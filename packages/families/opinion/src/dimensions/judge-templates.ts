import { runTemplate, TemplateMismatchError, type TemplateOverrides } from '@precis/engine/family';
import {
  type ChatMessage,
  isOpinionDimensionId,
  type OpinionDimensionId,
  type PromptTemplate,
} from '@precis/prompts';
import {
  GEVAL_SCORE_TEMPLATES,
  GEVAL_STEPS_TEMPLATES,
  renderGevalScorePrompt,
} from '../prompts/geval.templates.js';
import { OP_TEMPLATES, renderOpPrompt } from '../prompts/op.templates.js';
import { OP_I_TEMPLATE, renderOpIPrompt } from '../prompts/op-i.template.js';
import type { DimensionsMetricSpec } from './dimensions-spec.js';

export type JudgeFamily = DimensionsMetricSpec['family'];

// The scoring template of a family and dimension (Op-I: one template for every dimension).
export function judgeTemplate(
  family: JudgeFamily,
  dimension: OpinionDimensionId,
  overrides?: TemplateOverrides,
): PromptTemplate {
  switch (family) {
    case 'op-i':
      return runTemplate(OP_I_TEMPLATE, overrides);
    case 'op':
      return runTemplate(OP_TEMPLATES[dimension], overrides);
    case 'g-eval':
      return runTemplate(GEVAL_SCORE_TEMPLATES[dimension], overrides);
  }
}

export const gevalStepsTemplate = (
  dimension: OpinionDimensionId,
  overrides?: TemplateOverrides,
): PromptTemplate => runTemplate(GEVAL_STEPS_TEMPLATES[dimension], overrides);

export const templateRef = (t: PromptTemplate) => `${t.id}@${t.version}`;

// What every judge number names: the judge model and the template version.
export const judgeProducer = (model: string, t: PromptTemplate) => `model:${model} ${templateRef(t)}`;

export function asDimension(value: string, where: string): OpinionDimensionId {
  if (!isOpinionDimensionId(value)) throw new TemplateMismatchError(`${where}: unknown dimension "${value}"`);
  return value;
}

// A task names the template it was planned with; a worker with other prompts refuses it.
export function checkTemplate(t: PromptTemplate, id: string, version: string, where: string): void {
  if (t.id !== id || t.version !== version) {
    throw new TemplateMismatchError(
      `${where}: planned with template ${id}@${version}, but this worker has ${templateRef(t)}`,
    );
  }
}

export function renderJudgePrompt(
  family: JudgeFamily,
  dimension: OpinionDimensionId,
  input: { reviews: readonly string[]; summary: string },
  steps: readonly string[] | undefined,
  template: PromptTemplate,
): ChatMessage[] {
  switch (family) {
    case 'op-i':
      return renderOpIPrompt(dimension, input, template);
    case 'op':
      return renderOpPrompt(dimension, input, template);
    case 'g-eval':
      if (!steps?.length)
        throw new TemplateMismatchError(`G-Eval ${dimension}: the task carries no evaluation steps`);
      return renderGevalScorePrompt(dimension, steps, input, template);
  }
}
