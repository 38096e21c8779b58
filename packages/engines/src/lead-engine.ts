import { wordCount } from '@precis/text';
import { removeArtifacts } from './artifacts.js';
import { leadSummary, sentencesOf } from './extract.js';
import { assertBudget, type RoleResult, type SummaryEngine } from './roles.js';

export const LEAD_ENGINE = 'lead@1';

// Lead baseline for every summarization role: the first sentences that fit the budget.
// - merge: each summary gets an equal share of the budget (unused words pass to the next), so
//   every part of the story is represented; the prior context is not used;
// - update: the running summary is kept first and the chunk's lead fills what budget is left.
export function createLeadEngine(): SummaryEngine {
  const name = LEAD_ENGINE;
  const result = (text: string): RoleResult => ({ text, engine: name });
  const lead = (text: string, budgetWords: number) => leadSummary(sentencesOf(text), budgetWords);
  return {
    name,
    async summarizeChunk({ text, budgetWords }) {
      assertBudget(budgetWords, `${name} summarizeChunk`);
      return result(lead(text, budgetWords));
    },
    async merge({ summaries, budgetWords }) {
      assertBudget(budgetWords, `${name} merge`);
      const parts: string[] = [];
      let remaining = budgetWords;
      summaries.forEach((summary, k) => {
        const share = Math.floor(remaining / (summaries.length - k));
        if (share === 0) return;
        const part = lead(summary, share);
        if (!part) return;
        parts.push(part);
        remaining -= wordCount(part);
      });
      return result(parts.join(' '));
    },
    async compress({ summary, budgetWords }) {
      assertBudget(budgetWords, `${name} compress`);
      return result(lead(summary, budgetWords));
    },
    async update({ summary, chunk, budgetWords }) {
      assertBudget(budgetWords, `${name} update`);
      const kept = lead(summary, budgetWords);
      const left = budgetWords - wordCount(kept);
      const added = left > 0 ? leadSummary(sentencesOf(chunk), left) : '';
      return result([kept, added].filter(Boolean).join(' '));
    },
    async clean({ summary }) {
      return result(removeArtifacts(summary));
    },
  };
}
