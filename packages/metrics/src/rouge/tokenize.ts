import { porterStem } from './porter-stemmer.js';

// rouge-score's default tokenizer: lower-case, non-[a-z0-9] runs become spaces, split on
// whitespace, Porter-stem tokens longer than 3 characters when asked, drop empty tokens.
export interface RougeTokenizeOptions {
  stem?: boolean;
  // Optional memo of word -> stem, shared across calls to avoid re-stemming common words.
  stemCache?: Map<string, string>;
}

const NON_ALPHANUMERIC = /[^a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;

export function rougeTokenize(text: string, options: RougeTokenizeOptions = {}): string[] {
  const cleaned = text.toLowerCase().replace(NON_ALPHANUMERIC, ' ');
  const tokens: string[] = [];
  for (const raw of cleaned.split(/\s+/)) {
    let token = raw;
    if (options.stem && token.length > 3) {
      const cached = options.stemCache?.get(token);
      if (cached !== undefined) token = cached;
      else {
        const stemmed = porterStem(token);
        options.stemCache?.set(token, stemmed);
        token = stemmed;
      }
    }
    if (VALID_TOKEN.test(token)) tokens.push(token);
  }
  return tokens;
}
