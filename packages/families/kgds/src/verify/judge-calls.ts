import { type RunContext, runTemplate, type TemplateOverrides } from '@precis/engine';
import { OutputParseError, type PromptTemplate, renderTemplate } from '@precis/prompts';
import { countTokens } from '@precis/text';
import { KgdsOutputError } from '../summary/summarize-kgds.js';

export interface JudgeCall {
  ctx: RunContext;
  task: { id: string; runId: string };
  model: string;
  temperature: number;
  attempts: number;
  cache: boolean;
  overrides?: TemplateOverrides;
}

// One judge prompt, re-asked (bounded) until its reply parses; unparseable to the end is a
// failure of the task, never a default verdict.
export async function askJudge<T>(
  call: JudgeCall,
  base: PromptTemplate,
  vars: Record<string, string | number>,
  parse: (text: string, templateId: string) => T,
): Promise<{ value: T; templateVersion: string }> {
  const { ctx, task } = call;
  if (!ctx.chat)
    throw new KgdsOutputError(
      `the KGDS judge needs model ${call.model}, but no model registry is configured`,
    );
  const template = runTemplate(base, call.overrides);
  let last = '';
  for (let attempt = 0; attempt < call.attempts; attempt++) {
    const reply = await ctx.chat.chat({
      model: call.model,
      messages: renderTemplate(template, vars),
      temperature: call.temperature,
      runId: task.runId,
      taskId: task.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#reask-${attempt}`,
      cache: call.cache,
    });
    try {
      return { value: parse(reply.text, template.id), templateVersion: `${template.id}@${template.version}` };
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      last = err.message;
      ctx.logger.warn('unparseable KGDS judge reply', { taskId: task.id, attempt, error: err.message });
    }
  }
  throw new KgdsOutputError(
    `judge ${call.model} gave no parseable answer in ${call.attempts} attempt(s); last: ${last}`,
  );
}

// Splits a numbered list so each prompt fits the judge's context window (with room for the
// answer); a list is split, never truncated. A single item that does not fit is an error.
export function splitToFit<T>(
  items: readonly T[],
  prompt: (part: readonly T[]) => string,
  contextWindow: number | undefined,
): T[][] {
  if (contextWindow === undefined || items.length === 0) return [items.slice()];
  const fits = (part: readonly T[]) => {
    const budget = contextWindow - 8 * part.length - 64;
    const text = prompt(part);
    // A token is at least one byte: tokens are counted only when that bound does not settle it.
    return Buffer.byteLength(text) <= budget || countTokens(text) <= budget;
  };
  const out: T[][] = [];
  const visit = (part: T[]) => {
    if (fits(part)) out.push(part);
    else if (part.length === 1)
      throw new KgdsOutputError(
        `one item alone needs more than the judge's ${contextWindow}-token context window`,
      );
    else {
      const mid = Math.ceil(part.length / 2);
      visit(part.slice(0, mid));
      visit(part.slice(mid));
    }
  };
  visit(items.slice());
  return out;
}

export const promptText = (template: PromptTemplate, vars: Record<string, string | number>) =>
  renderTemplate(template, vars)
    .map((m) => m.content)
    .join('\n');
