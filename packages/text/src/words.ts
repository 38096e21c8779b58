// Word tokens for n-gram statistics: runs of letters/digits, joined across inner apostrophes,
// hyphens and periods ("don't", "well-known", "u.s", "3.5"), lower-cased, curly apostrophes
// folded to straight ones.
const WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;
// A whitespace-separated token counts as a word if it holds a letter or digit, so a stray
// "—" or "*" is not counted. This is the unit of every word budget.
const COUNTED = /\S*[\p{L}\p{N}]\S*/gu;

export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) out.push(m[0].toLowerCase().replaceAll('’', "'"));
  return out;
}

export function wordCount(text: string): number {
  return text.match(COUNTED)?.length ?? 0;
}

// The longest prefix of `text` holding at most `maxWords` counted words, trimmed.
export function truncateWords(text: string, maxWords: number): string {
  if (maxWords <= 0) return '';
  let n = 0;
  for (const m of text.matchAll(COUNTED)) {
    n++;
    if (n === maxWords) return text.slice(0, m.index + m[0].length).trim();
  }
  return text.trim();
}

export function ngrams(tokens: readonly string[], n: number): string[][] {
  assertN(n);
  const out: string[][] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n));
  return out;
}

// N-grams as single strings (tokens joined by a space, which no token contains), for sets.
export function ngramKeys(tokens: readonly string[], n: number): string[] {
  assertN(n);
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(' '));
  return out;
}

function assertN(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new Error(`n-gram size must be a positive integer, got ${n}`);
}

// The source side of novelNgramShare is usually a whole book scored against many summaries;
// its n-gram set is kept for the next call with the same source.
let lastSource: { text: string; n: number; keys: Set<string> } | undefined;

function sourceKeys(source: string, n: number): Set<string> {
  if (lastSource && lastSource.n === n && lastSource.text === source) return lastSource.keys;
  const keys = new Set(ngramKeys(words(source), n));
  lastSource = { text: source, n, keys };
  return keys;
}

// Share (0..1) of the summary's n-gram occurrences that never occur in the source
// (METHODS.md §1.5, "% novel trigrams" with n = 3). 0 when the summary has no n-grams.
export function novelNgramShare(summary: string, source: string, n = 3): number {
  const grams = ngramKeys(words(summary), n);
  if (grams.length === 0) return 0;
  const known = sourceKeys(source, n);
  let novel = 0;
  for (const g of grams) if (!known.has(g)) novel++;
  return novel / grams.length;
}

// Share (0..1) of the text's n-gram occurrences that repeat an earlier occurrence
// (METHODS.md §1.5, "% repeated trigrams" with n = 3): 1 - distinct / total. 0 when empty.
export function repeatedNgramShare(text: string, n = 3): number {
  const grams = ngramKeys(words(text), n);
  if (grams.length === 0) return 0;
  return 1 - new Set(grams).size / grams.length;
}
