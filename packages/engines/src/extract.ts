import { splitSentenceSpans, truncateWords, wordCount } from '@precis/text';
import { contentTerms, cosine, norm, type SparseVector, tfidfVectors } from './terms.js';
import { pageRank, rankOrder, similarityGraph, type TextRankOptions } from './textrank.js';

export interface Sentence {
  text: string;
  words: number;
}

// Sentences of a text with whitespace collapsed (hard wraps become spaces) and quotation marks
// balanced, since splitting dialogue ('"Oh! Single, my dear!"') leaves halves of a quotation.
export function sentencesOf(text: string): Sentence[] {
  return splitSentenceSpans(text).map((s) => {
    const t = balanceQuotes(s.text.replace(/\s+/g, ' '));
    return { text: t, words: wordCount(t) };
  });
}

export function balanceQuotes(sentence: string): string {
  let s = sentence;
  if ((s.match(/"/g)?.length ?? 0) % 2 === 1) {
    if (s.startsWith('"')) s = s.slice(1);
    else if (s.endsWith('"')) s = s.slice(0, -1);
    else if (/(?:^|\s)"[^"]*$/.test(s)) s = `${s}"`;
  }
  const opens = s.match(/“/g)?.length ?? 0;
  const closes = s.match(/”/g)?.length ?? 0;
  if (opens > closes && s.startsWith('“')) s = s.slice(1);
  else if (closes > opens && s.endsWith('”')) s = s.slice(0, -1);
  else if (opens > closes) s = `${s}”`;
  return s;
}

// Headings ("Chapter 12"), list markers and other fragments are not summary material: prose
// has at least four words, or at least two and a sentence-final mark.
export function isProse(s: Sentence): boolean {
  return s.words >= 4 || (s.words >= 2 && /[.!?…]["'”’)\]]*$/u.test(s.text));
}

// Sentences offered for extraction: prose of at least minWords words (short exclamations and
// dialogue fragments make unreadable extracts), else any prose, else everything.
export function candidatePool(sentences: readonly Sentence[], minWords: number): Sentence[] {
  const long = sentences.filter((s) => isProse(s) && s.words >= minWords);
  if (long.length > 0) return long;
  const prose = sentences.filter(isProse);
  return prose.length > 0 ? prose : [...sentences];
}

export const DEFAULT_MIN_SENTENCE_WORDS = 6;

export interface SelectOptions {
  budgetWords: number;
  // A candidate this similar (TF-IDF cosine) to a kept sentence or a context sentence is skipped.
  redundancy?: number;
  // Shorter sentences are only used when no longer ones exist.
  minSentenceWords?: number;
}

export const DEFAULT_REDUNDANCY = 0.8;

// Walks sentences in the given priority order and keeps each one that still fits the word budget
// and is not redundant; returns the kept ones in text order, joined by single spaces. If not
// even one sentence fits, the first in priority order is cut to the budget.
export function selectWithinBudget(
  sentences: readonly Sentence[],
  priority: readonly number[],
  vectors: readonly SparseVector[] | null,
  opts: SelectOptions & { context?: readonly SparseVector[] },
): string {
  const { budgetWords, redundancy = DEFAULT_REDUNDANCY, context = [] } = opts;
  const kept: number[] = [];
  const against: SparseVector[] = [...context];
  let remaining = budgetWords;
  for (const i of priority) {
    const s = sentences[i]!;
    if (s.words === 0 || s.words > remaining) continue;
    const v = vectors?.[i];
    if (v && norm(v) > 0 && against.some((c) => cosine(v, c) >= redundancy)) continue;
    kept.push(i);
    if (v) against.push(v);
    remaining -= s.words;
    if (remaining === 0) break;
  }
  if (kept.length === 0) {
    const top = priority.find((i) => sentences[i]!.words > 0);
    return top === undefined ? '' : truncateWords(sentences[top]!.text, budgetWords);
  }
  return kept
    .sort((a, b) => a - b)
    .map((i) => sentences[i]!.text)
    .join(' ');
}

export interface TextRankSummaryOptions extends SelectOptions, TextRankOptions {
  // Sentences that precede the input (e.g. the previous merged summary): never selected, but
  // candidates that repeat them are skipped.
  context?: string;
}

// Extractive summary: TextRank over TF-IDF cosine similarities, then the most central prose
// sentences that fit the budget, in their original order.
export function textRankSummary(sentences: readonly Sentence[], opts: TextRankSummaryOptions): string {
  const pool = candidatePool(sentences, opts.minSentenceWords ?? DEFAULT_MIN_SENTENCE_WORDS);
  if (pool.length === 0) return '';
  const contextSentences = opts.context ? sentencesOf(opts.context).filter(isProse) : [];
  // One IDF space for candidates and context so their vectors are comparable.
  const vectors = tfidfVectors([...pool, ...contextSentences].map((s) => contentTerms(s.text)));
  const candidateVectors = vectors.slice(0, pool.length);
  const scores = pageRank(similarityGraph(candidateVectors, opts), opts);
  return selectWithinBudget(pool, rankOrder(scores), candidateVectors, {
    ...opts,
    context: vectors.slice(pool.length),
  });
}

// Lead baseline: the first prose sentences, in order, while they fit the budget.
export function leadSummary(sentences: readonly Sentence[], budgetWords: number): string {
  const pool = candidatePool(sentences, 1);
  const kept: string[] = [];
  let remaining = budgetWords;
  for (const s of pool) {
    if (s.words === 0) continue;
    if (s.words > remaining) break;
    kept.push(s.text);
    remaining -= s.words;
  }
  if (kept.length === 0 && pool.length > 0) return truncateWords(pool[0]!.text, budgetWords);
  return kept.join(' ');
}
