import { sentencesOf } from './extract.js';
import { contentTerms } from './terms.js';

// The offline QuerySimulator of GoR (METHODS.md §5.2): pick a random chunk, take its most salient
// sentence (the one whose content terms are rarest across the document's chunks, by summed idf)
// and ask for a summary of what it is about; repeat until `count` distinct questions. Labelled
// heuristic wherever it is reported.
export const HEURISTIC_QUERY_SIMULATOR = 'salient-sentence-questions@1';

export interface SimulatedQuery {
  question: string;
  // The chunk the question was made from (the self-supervised pair's answer).
  chunk: number;
}

function idfOf(chunks: readonly string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const c of chunks) for (const t of new Set(contentTerms(c))) df.set(t, (df.get(t) ?? 0) + 1);
  return new Map([...df].map(([t, n]) => [t, Math.log((1 + chunks.length) / (1 + n)) + 1]));
}

// The chunk's most salient sentence's three heaviest distinct terms, in sentence order.
function questionFor(chunk: string, idf: ReadonlyMap<string, number>): string | null {
  let best: { terms: string[]; weight: number } | null = null;
  for (const s of sentencesOf(chunk)) {
    const terms = [...new Set(contentTerms(s.text))];
    const weight = terms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
    if (terms.length >= 2 && (!best || weight > best.weight)) best = { terms, weight };
  }
  if (!best) return null;
  const top = [...best.terms].sort((a, b) => (idf.get(b) ?? 0) - (idf.get(a) ?? 0)).slice(0, 3);
  const ordered = best.terms.filter((t) => top.includes(t));
  return `What is said about ${ordered.join(', ')}?`;
}

// Up to `count` distinct questions from random chunks (seeded draws); fewer when the chunks give
// no more distinct questions within 10 x count draws.
export function simulateQueries(
  chunks: readonly string[],
  count: number,
  rnd: () => number,
): SimulatedQuery[] {
  const idf = idfOf(chunks);
  const out: SimulatedQuery[] = [];
  const seen = new Set<string>();
  for (let draw = 0; draw < 10 * count && out.length < count && chunks.length > 0; draw++) {
    const chunk = Math.floor(rnd() * chunks.length);
    const question = questionFor(chunks[chunk]!, idf);
    if (question === null || seen.has(question)) continue;
    seen.add(question);
    out.push({ question, chunk });
  }
  return out;
}
