import { removeArtifacts } from './artifacts.js';
import { sentencesOf, type TextRankSummaryOptions, textRankSummary } from './extract.js';
import { assertBudget, type RoleResult, type SummaryEngine } from './roles.js';

export const TEXTRANK_ENGINE = 'textrank@1';

export type TextRankEngineOptions = Omit<TextRankSummaryOptions, 'budgetWords' | 'context'>;

// Every summarization role as TextRank sentence extraction:
// - summarizeChunk / compress: the most central sentences of the input within the budget;
// - merge: ranks the sentences of all summaries together, skipping ones that repeat the prior
//   context, output in summary order;
// - update: ranks the running summary and the new chunk together, so the result is the most
//   central content of the story so far, in story order;
// - clean: rule-based artifact removal.
export function createTextRankEngine(options: TextRankEngineOptions = {}): SummaryEngine {
  const name = TEXTRANK_ENGINE;
  const result = (text: string): RoleResult => ({ text, engine: name });
  const summarize = (text: string, budgetWords: number, context?: string) =>
    textRankSummary(sentencesOf(text), { ...options, budgetWords, context });
  return {
    name,
    async summarizeChunk({ text, budgetWords }) {
      assertBudget(budgetWords, `${name} summarizeChunk`);
      return result(summarize(text, budgetWords));
    },
    async merge({ summaries, priorContext, budgetWords }) {
      assertBudget(budgetWords, `${name} merge`);
      return result(summarize(summaries.join('\n\n'), budgetWords, priorContext));
    },
    async compress({ summary, budgetWords }) {
      assertBudget(budgetWords, `${name} compress`);
      return result(summarize(summary, budgetWords));
    },
    async update({ summary, chunk, budgetWords }) {
      assertBudget(budgetWords, `${name} update`);
      return result(summarize(`${summary}\n\n${chunk}`, budgetWords));
    },
    async clean({ summary }) {
      return result(removeArtifacts(summary));
    },
  };
}
