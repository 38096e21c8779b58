import type { NewTask, RunContext, SummaryTaskResult, SystemSpec } from '@precis/engine/family';
import {
  ConfigurationError,
  runTemplate,
  summarizeTaskId,
  type TemplateOverrides,
} from '@precis/engine/family';
import { createLeadEngine, createTextRankEngine } from '@precis/engines';
import { renderTemplate } from '@precis/prompts';
import { checkTemplate } from '../dimensions/judge-templates.js';
import type { OpinionSummaryPayload } from '../payloads.js';
import { formatReviews } from '../prompts/dimension-definitions.js';
import { OPINION_SUMMARY_TEMPLATE } from '../prompts/generate.template.js';
import { documentReviews } from './reviews.js';

// Strategy 'opinion' has one step per product: reviews -> one paragraph.
export const OPINION_STEP_KEY = 'opinion';
export const DEFAULT_OPINION_BUDGET_WORDS = 80;

export function opinionSummaryTask(
  runId: string,
  system: SystemSpec,
  documentId: string,
  overrides?: TemplateOverrides,
): NewTask {
  const template = runTemplate(OPINION_SUMMARY_TEMPLATE, overrides);
  return {
    id: summarizeTaskId(runId, system.name, documentId, OPINION_STEP_KEY),
    runId,
    stage: 'summarize',
    kind: 'opinion-summary',
    payload: {
      type: 'opinion-summary',
      system: system.name,
      documentId,
      templateId: template.id,
      templateVersion: template.version,
    },
  };
}

// The offline baseline is extractive over the concatenated reviews; a model gets the template.
export async function summarizeOpinion(
  ctx: RunContext,
  task: { id: string; runId: string },
  payload: OpinionSummaryPayload,
  system: SystemSpec,
  cache: boolean,
  overrides?: TemplateOverrides,
): Promise<SummaryTaskResult> {
  const template = runTemplate(OPINION_SUMMARY_TEMPLATE, overrides);
  checkTemplate(template, payload.templateId, payload.templateVersion, `task ${task.id}`);
  const reviews = await documentReviews(ctx.db, payload.documentId);
  const budgetWords = (system.params as { budgetWords?: number }).budgetWords ?? DEFAULT_OPINION_BUDGET_WORDS;
  if (system.engine !== undefined) {
    const engine = system.engine === 'textrank' ? createTextRankEngine() : createLeadEngine();
    const out = await engine.summarizeChunk({ text: reviews.join('\n\n'), budgetWords });
    // One paragraph: the extracted sentences joined by spaces.
    const text = out.text.replace(/\s*\n+\s*/g, ' ').trim();
    return { text, generations: 1, cut: false, producer: `engine:${out.engine}` };
  }
  if (!ctx.chat)
    throw new ConfigurationError(
      `system ${system.name} needs model ${system.model}, but no model registry is configured`,
    );
  const p = system.params;
  const reply = await ctx.chat.chat({
    model: system.model!,
    messages: renderTemplate(template, { reviews: formatReviews(reviews) }),
    temperature: p.temperature,
    // A summary can be sampled at the model's own temperature (reasoning models take only theirs).
    anyTemperature: true,
    topP: p.topP,
    maxTokens: p.maxTokens,
    runId: task.runId,
    taskId: task.id,
    templateVersion: template.version,
    cache,
  });
  const text = reply.text.replace(/\s*\n+\s*/g, ' ').trim();
  if (text === '') throw new Error(`model ${system.model} returned an empty opinion summary`);
  return { text, generations: 1, cut: false, producer: `model:${system.model}` };
}
