// Retrieval metrics of PerSphere (METHODS.md §3.2). Per-query functions return NaN when the
// query has nothing to find; the mean helpers skip such queries and report how many they used.

function topK(ranked: readonly string[], k: number): Set<string> {
  if (!(Number.isInteger(k) && k > 0)) throw new RangeError(`k must be a positive integer, got ${k}`);
  return new Set(ranked.slice(0, k));
}

// |D ∩ T_k| / |D|.
export function recallAtK(relevant: readonly string[], ranked: readonly string[], k: number): number {
  const top = topK(ranked, k);
  const gold = new Set(relevant);
  if (gold.size === 0) return Number.NaN;
  let hits = 0;
  for (const d of gold) if (top.has(d)) hits++;
  return hits / gold.size;
}

// Share of gold perspectives with at least one evidence document in T_k. `accept` narrows a hit
// (Rp@k: the judge must find that the perspective extracted from that document entails the gold one).
export function coverAtK(
  perspectiveEvidence: readonly (readonly string[])[],
  ranked: readonly string[],
  k: number,
  accept?: (perspectiveIndex: number, docId: string) => boolean,
): number {
  const top = topK(ranked, k);
  if (perspectiveEvidence.length === 0) return Number.NaN;
  let covered = 0;
  perspectiveEvidence.forEach((docs, j) => {
    if (docs.some((d) => top.has(d) && (accept === undefined || accept(j, d)))) covered++;
  });
  return covered / perspectiveEvidence.length;
}

export interface MeanOverQueries {
  value: number;
  queriesUsed: number;
  queriesSkipped: number[];
}

export function meanOverQueries(perQuery: readonly number[]): MeanOverQueries {
  const queriesSkipped: number[] = [];
  let sum = 0;
  perQuery.forEach((v, i) => {
    if (Number.isNaN(v)) queriesSkipped.push(i);
    else sum += v;
  });
  const used = perQuery.length - queriesSkipped.length;
  return { value: used > 0 ? sum / used : Number.NaN, queriesUsed: used, queriesSkipped };
}

export function meanRecallAtK(
  queries: readonly { relevant: readonly string[]; ranked: readonly string[] }[],
  k: number,
): MeanOverQueries {
  return meanOverQueries(queries.map((q) => recallAtK(q.relevant, q.ranked, k)));
}

export function meanCoverAtK(
  queries: readonly { perspectiveEvidence: readonly (readonly string[])[]; ranked: readonly string[] }[],
  k: number,
): MeanOverQueries {
  return meanOverQueries(queries.map((q) => coverAtK(q.perspectiveEvidence, q.ranked, k)));
}
