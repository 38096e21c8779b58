import { sentencesOf } from './extract.js';
import { LEXICAL_THRESHOLD, termRecall } from './lexical-verifier.js';

// Offline roles of PerSphere (METHODS.md §3), all heuristics named by LEXICAL_PERSPECTIVES so a
// report never passes them off as a model: first sentences as perspectives, opposition cues for
// stance, content-term overlap for entailment, reference and rating.
export const LEXICAL_PERSPECTIVES = 'lexical-perspectives@1';

// Structurally PerSphere's summary: two claims, each with perspectives citing document ids.
export interface PerspectiveSummary {
  claims: { statement: string; perspectives: { text: string; refs: string[] }[] }[];
}

const MAX_WORDS = 40;
// Words that mark a text as arguing against: enough to split a ranked list into two sides.
const AGAINST = new Set(
  'not no never against oppose opposes opposed ban banned harm harmful bad worse wrong fail fails failed risk risks danger dangerous cannot unfair'.split(
    ' ',
  ),
);

// A document's first sentence, cut to MAX_WORDS words (the perspective it "extracts").
export function firstSentence(text: string): string {
  const first = sentencesOf(text)[0]?.text ?? text.trim();
  const words = first.split(/\s+/);
  return words.length <= MAX_WORDS ? first : `${words.slice(0, MAX_WORDS).join(' ')}…`;
}

const opposition = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter((w) => AGAINST.has(w) || w.endsWith("n't")).length;

// The vanilla offline summary: claims "We support / undermine the argument that {query}"; each
// document's first sentence goes to the second claim when it holds opposition cues. Neither claim
// is left empty while there are two documents.
export function leadPerspectiveSummary(
  query: string,
  docs: readonly { id: string; text: string }[],
): PerspectiveSummary {
  const sides: { text: string; refs: string[] }[][] = [[], []];
  for (const d of docs)
    sides[opposition(d.text) > 0 ? 1 : 0]!.push({ text: firstSentence(d.text), refs: [d.id] });
  if (docs.length >= 2 && sides[0]!.length === 0) sides[0]!.push(sides[1]!.shift()!);
  if (docs.length >= 2 && sides[1]!.length === 0) sides[1]!.push(sides[0]!.pop()!);
  // One document: its second sentence (else its first) stands for the other side.
  if (docs.length === 1) {
    const [, second] = sentencesOf(docs[0]!.text);
    const empty = sides[0]!.length === 0 ? sides[0]! : sides[1]!;
    empty.push({
      text: second ? firstSentence(second.text) : firstSentence(docs[0]!.text),
      refs: [docs[0]!.id],
    });
  }
  const q = query.replace(/[?.!\s]+$/, '');
  return {
    claims: [
      { statement: `We support the argument that ${q}.`, perspectives: sides[0]! },
      { statement: `We undermine the argument that ${q}.`, perspectives: sides[1]! },
    ],
  };
}

// The offline editor: each claim's perspectives of every local summary, one per distinct text
// (references of equal texts joined).
export function mergePerspectiveSummaries(parts: readonly PerspectiveSummary[]): PerspectiveSummary {
  const claims = [0, 1].map((c) => {
    const byText = new Map<string, Set<string>>();
    for (const p of parts.flatMap((s) => s.claims[c]?.perspectives ?? [])) {
      const refs = byText.get(p.text) ?? new Set<string>();
      for (const r of p.refs) refs.add(r);
      byText.set(p.text, refs);
    }
    const statement = parts.find((s) => s.claims[c])?.claims[c]?.statement ?? '';
    return { statement, perspectives: [...byText].map(([text, refs]) => ({ text, refs: [...refs] })) };
  });
  return { claims };
}

export const lexicallyEntails = (premise: string, hypothesis: string): boolean =>
  termRecall(hypothesis, premise) >= LEXICAL_THRESHOLD;

// The claim sharing more content terms with the perspective (ties: the first).
export function lexicalStance(perspective: string, claim1: string, claim2: string): 1 | 2 {
  return termRecall(claim2, perspective) > termRecall(claim1, perspective) ? 2 : 1;
}

// A document is a reference when it holds half of the perspective's content terms.
export const lexicalReference = (perspective: string, document: string): boolean =>
  termRecall(perspective, document) >= 0.5;

// 1–10 from how well the response's perspectives cover the golden ones (best content-term recall
// per golden perspective, averaged), so an empty or off-topic response rates 1.
export function lexicalRating(response: PerspectiveSummary, golden: PerspectiveSummary): number {
  const said = response.claims.flatMap((c) => c.perspectives.map((p) => p.text));
  const gold = golden.claims.flatMap((c) => c.perspectives.map((p) => p.text));
  if (gold.length === 0) return 1;
  const coverage =
    gold.reduce((sum, g) => sum + Math.max(0, ...said.map((s) => termRecall(g, s))), 0) / gold.length;
  return 1 + Math.round(9 * coverage);
}
