import {
  type BenchmarkSpec,
  ConfigurationError,
  type RunContext,
  runTemplate,
  type SummaryTaskResult,
  type SystemSpec,
} from '@precis/engine/family';
import { createTextRankEngine } from '@precis/engines';
import { type ChatMessage, OutputParseError, renderTemplate } from '@precis/prompts';
import type { KgdsSystemSettings } from '../kgds-spec.js';
import { type KgdsSummaryAnswer, parseKgdsSummary } from '../prompts/kgds.parsers.js';
import {
  KGDS_ABS_AOS_TEMPLATE,
  KGDS_EBS_AOS_TEMPLATE,
  KGDS_REFLECT_TEMPLATE,
} from '../prompts/kgds.templates.js';
import { formatParagraphs, formatUtterances, type KgdsSample, loadKgdsSample } from '../sample.js';

export const KGDS_SUMMARY_TEMPLATES = {
  'ebs-aos': KGDS_EBS_AOS_TEMPLATE,
  'abs-aos': KGDS_ABS_AOS_TEMPLATE,
} as const;

// Attempts at a parseable answer before the summary is recorded as failed (METHODS: re-ask, bounded).
export const KGDS_SUMMARY_ATTEMPTS = 3;
// METHODS.md §2.2 settings for the model systems.
const TEMPERATURE = 0;
const MAX_TOKENS = 4096;
const LEAD_AOS_WORDS = 80;

// Model output that stayed unparseable: the task fails at once (a retry would ask again).
export class KgdsOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KgdsOutputError';
  }
}

export type KgdsSummaryResult = SummaryTaskResult &
  KgdsSummaryAnswer & { pattern: KgdsSystemSettings['pattern'] };

// What the summary table shows: the parts, labelled.
export function renderKgdsSummary(a: KgdsSummaryAnswer): string {
  const background =
    a.ebs !== undefined
      ? `Background paragraphs: ${a.ebs.length ? a.ebs.join(', ') : '(none)'}`
      : `Background: ${a.abs}`;
  return `${background}\n\nOpinions: ${a.aos}`;
}

export async function summarizeKgds(
  ctx: RunContext,
  task: { id: string; runId: string },
  documentId: string,
  system: SystemSpec,
  settings: KgdsSystemSettings,
  spec: BenchmarkSpec,
): Promise<KgdsSummaryResult> {
  const sample = await loadKgdsSample(ctx.db, documentId);
  if (system.engine !== undefined) return leadSummary(sample, settings);
  const answer = await modelSummary(ctx, task, sample, system, settings, spec);
  return {
    ...answer.parts,
    pattern: settings.pattern,
    text: renderKgdsSummary(answer.parts),
    generations: answer.attempts,
    cut: false,
    producer: `model:${system.model}`,
  };
}

// The offline reference: the first k paragraphs, and TextRank over the discussion.
async function leadSummary(sample: KgdsSample, settings: KgdsSystemSettings): Promise<KgdsSummaryResult> {
  const lead = sample.paragraphs.slice(0, settings.paragraphs);
  const out = await createTextRankEngine().summarizeChunk({
    text: formatUtterances(sample),
    budgetWords: LEAD_AOS_WORDS,
  });
  const aos = out.text.replace(/\s*\n+\s*/g, ' ').trim();
  const parts: KgdsSummaryAnswer =
    settings.pattern === 'ebs-aos'
      ? { ebs: lead.map((p) => p.index), outsideArticle: [], aos }
      : { abs: lead.map((p) => p.text).join(' '), aos };
  return {
    ...parts,
    pattern: settings.pattern,
    text: renderKgdsSummary(parts),
    generations: 1,
    cut: false,
    producer: 'engine:lead',
  };
}

async function modelSummary(
  ctx: RunContext,
  task: { id: string; runId: string },
  sample: KgdsSample,
  system: SystemSpec,
  settings: KgdsSystemSettings,
  spec: BenchmarkSpec,
): Promise<{ parts: KgdsSummaryAnswer; attempts: number }> {
  const chat = ctx.chat;
  if (!chat)
    throw new ConfigurationError(
      `system ${system.name} needs model ${system.model}, but no model registry is configured`,
    );
  const template = runTemplate(KGDS_SUMMARY_TEMPLATES[settings.pattern], spec.templateOverrides);
  const reflect = runTemplate(KGDS_REFLECT_TEMPLATE, spec.templateOverrides);
  const first = renderTemplate(template, {
    paragraphs: formatParagraphs(sample),
    utterances: formatUtterances(sample),
  });
  const indices = sample.paragraphs.map((p) => p.index);
  const call = (messages: ChatMessage[], version: string) =>
    chat.chat({
      model: system.model!,
      messages,
      temperature: TEMPERATURE,
      // A summary can be sampled at the model's own temperature (reasoning models take only theirs).
      anyTemperature: true,
      maxTokens: system.params.maxTokens ?? MAX_TOKENS,
      runId: task.runId,
      taskId: task.id,
      templateVersion: version,
      cache: spec.cache,
    });
  const problems: string[] = [];
  for (let attempt = 0; attempt < KGDS_SUMMARY_ATTEMPTS; attempt++) {
    const suffix = attempt === 0 ? '' : `#reask-${attempt}`;
    let reply = await call(first, `${template.version}${suffix}`);
    if (settings.paradigm === 'self-reflection') {
      const turn2 = [
        ...first,
        { role: 'assistant' as const, content: reply.text },
        ...renderTemplate(reflect, {}),
      ];
      reply = await call(turn2, `${template.version}+${reflect.id}@${reflect.version}${suffix}`);
    }
    try {
      return {
        parts: parseKgdsSummary(reply.text, settings.pattern, indices, template.id),
        attempts: attempt + 1,
      };
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      problems.push(err.message);
      ctx.logger.warn('unparseable KGDS summary', { taskId: task.id, attempt, error: err.message });
    }
  }
  throw new KgdsOutputError(
    `model ${system.model} gave no parseable ${settings.pattern} answer in ${KGDS_SUMMARY_ATTEMPTS} attempts; last: ${problems.at(-1)}`,
  );
}
