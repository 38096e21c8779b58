// KGDS metrics (METHODS.md §2.3). Every ratio whose denominator is 0 is defined as 0 and the
// sample is flagged, so callers can report how many samples hit the convention.

export interface PrfScore {
  precision: number;
  recall: number;
  f1: number;
  // Which of the three ratios were 0/0 (and therefore set to 0).
  zeroDivision: { precision: boolean; recall: boolean; f1: boolean };
  flagged: boolean;
}

function ratio(num: number, den: number): [number, boolean] {
  return den === 0 ? [0, true] : [num / den, false];
}

function prf(truePositives: number, predictedRelevant: number, goldTotal: number): PrfScore {
  const [precision, p0] = ratio(truePositives, predictedRelevant);
  const [recall, r0] = ratio(truePositives, goldTotal);
  const [half, f0] = ratio(precision * recall, precision + recall);
  const zeroDivision = { precision: p0, recall: r0, f1: f0 };
  return { precision, recall, f1: 2 * half, zeroDivision, flagged: p0 || r0 || f0 };
}

export interface BspInput {
  // Paragraph indices the model output (B); duplicates are ignored.
  predicted: readonly number[];
  // Gold background-supporting paragraph indices (S).
  gold: readonly number[];
  // All paragraph indices of the article (S ∪ Nₚ); predictions outside it are ignored.
  article: readonly number[];
}

export interface BspScore extends PrfScore {
  // Predicted indices that are not paragraphs of the article.
  outsideArticle: number[];
}

// R = |B ∩ S| / |S|, P = |B ∩ S| / |B ∩ (S ∪ Nₚ)|.
export function bspScore(input: BspInput): BspScore {
  const gold = new Set(input.gold);
  const article = new Set([...input.article, ...input.gold]);
  const predicted = new Set(input.predicted);
  let hits = 0;
  let inArticle = 0;
  const outsideArticle: number[] = [];
  for (const b of predicted) {
    if (!article.has(b)) {
      outsideArticle.push(b);
      continue;
    }
    inArticle++;
    if (gold.has(b)) hits++;
  }
  return { ...prf(hits, inArticle, gold.size), outsideArticle };
}

// KBSAF: R = #K inferred / |K|; P = #K inferred / #(K ∪ N) inferred. One boolean per fact.
export function kbsafScore(
  keyFactsInferred: readonly boolean[],
  nonSupportingFactsInferred: readonly boolean[],
): PrfScore {
  const k = keyFactsInferred.filter(Boolean).length;
  const nInferred = nonSupportingFactsInferred.filter(Boolean).length;
  return prf(k, k + nInferred, keyFactsInferred.length);
}

export interface RecallScore {
  recall: number;
  flagged: boolean;
}

// CAO recall: share of clear atomic opinions the judge found inferable from the opinion summary.
export function caoRecall(opinionsInferred: readonly boolean[]): RecallScore {
  const [recall, flagged] = ratio(opinionsInferred.filter(Boolean).length, opinionsInferred.length);
  return { recall, flagged };
}

export const OPINION_ERROR_TYPES = ['OFI', 'OSD', 'IRU', 'IRIC', 'OM'] as const;
export type OpinionErrorType = (typeof OPINION_ERROR_TYPES)[number];

// Share of each error type among the classified non-inferred opinions (all 0 when there are none).
export function opinionErrorDistribution(
  errors: readonly OpinionErrorType[],
): Record<OpinionErrorType, number> {
  const out = Object.fromEntries(OPINION_ERROR_TYPES.map((t) => [t, 0])) as Record<OpinionErrorType, number>;
  for (const e of errors) {
    if (!(e in out))
      throw new RangeError(`unknown opinion error type "${e}"; use ${OPINION_ERROR_TYPES.join(', ')}`);
    out[e]++;
  }
  if (errors.length > 0) for (const t of OPINION_ERROR_TYPES) out[t] /= errors.length;
  return out;
}

// OP_GM = sqrt(background F1 * CAO recall); BSP F1 for EBS-AOS, KBSAF F1 for ABS-AOS.
export function opGeometricMean(backgroundF1: number, caoRecallValue: number): number {
  for (const [name, v] of [
    ['backgroundF1', backgroundF1],
    ['caoRecall', caoRecallValue],
  ] as const) {
    if (!(v >= 0 && v <= 1))
      throw new RangeError(`${name} must be in [0, 1] (a fraction, not a percentage), got ${v}`);
  }
  return Math.sqrt(backgroundF1 * caoRecallValue);
}

// |B| / #paragraphs in the article (distinct predicted indices).
export function paragraphRetrievalRatio(predicted: readonly number[], articleParagraphs: number): number {
  if (!(Number.isInteger(articleParagraphs) && articleParagraphs > 0)) {
    throw new RangeError(`articleParagraphs must be a positive integer, got ${articleParagraphs}`);
  }
  return new Set(predicted).size / articleParagraphs;
}

// Macro average over samples (KGDS reports it ×100); NaN for no samples.
export function macroAverage(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((s, v) => s + v, 0) / values.length;
}
