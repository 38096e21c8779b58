export interface Ranking {
  hits: { id: string; score: number }[];
  // Why the ranking is shorter than asked, for the caller to say.
  warnings: string[];
}

// The k best documents, best first; ties by document order (the corpus order), so a ranking is
// reproducible. k beyond the corpus is capped, and a query with no terms ranks nothing; both
// are reported.
export function topK(
  ids: readonly string[],
  scores: ReadonlyMap<number, number>,
  k: number,
  noTerms: boolean,
): Ranking {
  const warnings: string[] = [];
  if (noTerms) warnings.push('the query has no terms after analysis: nothing is ranked');
  let limit = k;
  if (k > ids.length) {
    limit = ids.length;
    warnings.push(
      `k = ${k} is more than the ${ids.length} document${ids.length === 1 ? '' : 's'} of the corpus: capped to ${ids.length}`,
    );
  }
  const hits = [...scores]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([doc, score]) => ({ id: ids[doc]!, score }));
  return { hits, warnings };
}
