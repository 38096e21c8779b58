// BERTScore-style similarity of two texts given as token vectors (METHODS.md §5.6 labels): each
// candidate token is matched to its most similar reference token (precision) and each reference
// token to its most similar candidate token (recall), by cosine; F1 of the two means. Which vectors
// stand for tokens is the embedder's business (contextual token states, or an offline engine's
// term vectors); an empty side scores 0.
export interface GreedyMatchScore {
  precision: number;
  recall: number;
  f1: number;
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`token vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const meanBest = (from: readonly ArrayLike<number>[], to: readonly ArrayLike<number>[]) =>
  from.reduce((sum, v) => sum + Math.max(...to.map((w) => cosine(v, w))), 0) / from.length;

export function greedyMatchScore(
  candidate: readonly ArrayLike<number>[],
  reference: readonly ArrayLike<number>[],
): GreedyMatchScore {
  if (candidate.length === 0 || reference.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = meanBest(candidate, reference);
  const recall = meanBest(reference, candidate);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
