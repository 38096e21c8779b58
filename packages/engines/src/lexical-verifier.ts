import { contentTerms } from './terms.js';

// The offline verifier (a heuristic, never an LLM judge): lexical overlap of content terms.
export const LEXICAL_VERIFIER = 'lexical-overlap@1';
export const LEXICAL_THRESHOLD = 0.6;

// Share of the claim's distinct content terms that occur in the text (1 for a claim without any).
export function termRecall(claim: string, text: string): number {
  const wanted = new Set(contentTerms(claim));
  if (wanted.size === 0) return 1;
  const present = new Set(contentTerms(text));
  let hits = 0;
  for (const t of wanted) if (present.has(t)) hits++;
  return hits / wanted.size;
}

// A claim counts as inferred when at least `threshold` of its content terms occur in the text.
export const lexicallyInferred = (claim: string, text: string, threshold = LEXICAL_THRESHOLD): boolean =>
  termRecall(claim, text) >= threshold;

// Why a summary misses an opinion, by lexical cues: its speaker is absent (OM), the terms of what
// it refers to (in **bold**) are absent (IRU), else its content differs (OFI).
export function lexicalOpinionError(
  opinion: string,
  summary: string,
  speakers: readonly string[],
): 'OM' | 'IRU' | 'OFI' {
  const lower = summary.toLowerCase();
  const speaker = speakers.find((s) => opinion.toLowerCase().includes(s.toLowerCase()));
  if (speaker && !lower.includes(speaker.toLowerCase())) return 'OM';
  const referents = [...opinion.matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]!);
  if (referents.some((r) => termRecall(r, summary) < LEXICAL_THRESHOLD)) return 'IRU';
  return 'OFI';
}
