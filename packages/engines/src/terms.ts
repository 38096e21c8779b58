import { words } from '@precis/text';
import { STOPWORDS } from './stopwords.js';

// Content terms of a sentence: lower-case words without function words, possessives and simple
// plurals folded ("Darcy's" -> "darcy", "sisters" -> "sister", "ladies" -> "lady").
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w) || !/\p{L}/u.test(w)) continue;
    out.push(fold(w));
  }
  return out;
}

function fold(w: string): string {
  let t = w.endsWith("'s") ? w.slice(0, -2) : w;
  if (t.length > 4 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 3 && t.endsWith('s') && !/(?:ss|us|is)$/.test(t)) t = t.slice(0, -1);
  return t;
}

export type SparseVector = Map<string, number>;

// TF-IDF vectors over a set of sentences (each sentence is a document), smoothed IDF
// ln((1 + N) / (1 + df)) + 1, so a term in every sentence still weighs a little.
export function tfidfVectors(docs: readonly string[][]): SparseVector[] {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return docs.map((d) => {
    const v: SparseVector = new Map();
    for (const t of d) v.set(t, (v.get(t) ?? 0) + 1);
    for (const [t, tf] of v) v.set(t, tf * (Math.log((1 + n) / (1 + df.get(t)!)) + 1));
    return v;
  });
}

export function norm(v: SparseVector): number {
  let s = 0;
  for (const x of v.values()) s += x * x;
  return Math.sqrt(s);
}

export function cosine(a: SparseVector, b: SparseVector, normA = norm(a), normB = norm(b)): number {
  if (normA === 0 || normB === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, x] of small) {
    const y = large.get(t);
    if (y !== undefined) dot += x * y;
  }
  return dot / (normA * normB);
}
