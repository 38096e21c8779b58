import { splitSentenceSpans, wordCount } from '@precis/text';

export function overBudget(text: string, budgetWords: number): boolean {
  return wordCount(text) > budgetWords;
}

// Cuts an over-budget output at the last sentence end that keeps it within the budget; when
// even the first sentence is too long, cuts at the word budget.
export function cutToBudget(text: string, budgetWords: number): string {
  if (!overBudget(text, budgetWords)) return text.trim();
  let kept = '';
  for (const span of splitSentenceSpans(text)) {
    const candidate = text.slice(0, span.end).trim();
    if (wordCount(candidate) > budgetWords) break;
    kept = candidate;
  }
  if (kept) return kept;
  return text.trim().split(/\s+/).slice(0, budgetWords).join(' ');
}
