import { stemmer } from 'stemmer';

// Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), the default of BM25
// toolkits such as Pyserini/Anserini.
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

export interface AnalyzerOptions {
  lowercase: boolean;
  // 'english': the set above; 'none': keep every word.
  stopwords: 'english' | 'none';
  // 'porter': Porter's 1980 algorithm (the `stemmer` package), as Lucene's PorterStemFilter.
  stemmer: 'porter' | 'none';
}

export const DEFAULT_ANALYZER: AnalyzerOptions = { lowercase: true, stopwords: 'english', stemmer: 'porter' };

// Letters and digits, with inner apostrophes kept ("don't"); a trailing possessive 's is dropped
// as Lucene's EnglishPossessiveFilter does.
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

// Text -> index terms: tokenize, (lower-case), drop possessives and stop words, (stem).
export function analyze(text: string, opts: AnalyzerOptions = DEFAULT_ANALYZER): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    let w = opts.lowercase ? m[0].toLowerCase() : m[0];
    w = w.replace(/['’][sS]$/, '');
    if (opts.stopwords === 'english' && ENGLISH_STOP_WORDS.has(w.toLowerCase())) continue;
    out.push(opts.stemmer === 'porter' ? stemmer(w) : w);
  }
  return out;
}
