import { askParsed, type JudgeCall } from '@precis/engine/family';
import { type PromptTemplate, renderTemplate } from '@precis/prompts';
import { countTokens } from '@precis/text';
import { KgdsOutputError } from '../summary/summarize-kgds.js';

export type { JudgeCall };

export const askJudge = <T>(
  call: JudgeCall,
  base: PromptTemplate,
  vars: Record<string, string | number>,
  parse: (text: string, templateId: string) => T,
) => askParsed({ ...call, benchmark: 'KGDS', fail: (m) => new KgdsOutputError(m) }, base, vars, parse);

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
