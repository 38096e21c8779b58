import type { Ranking } from './ranking.js';

// Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each document scores the sum of
// 1 / (k + rank) over the rankings it appears in (rank from 1); k = 60 by default. Ties keep the
// order of first appearance (earlier rankings first).
export function reciprocalRankFusion(rankings: readonly Ranking[], limit: number, k = 60): Ranking {
  if (rankings.length < 2)
    throw new RangeError(`rank fusion needs two or more rankings, got ${rankings.length}`);
  const scores = new Map<string, number>();
  for (const r of rankings)
    for (const [i, h] of r.hits.entries()) scores.set(h.id, (scores.get(h.id) ?? 0) + 1 / (k + i + 1));
  const first = new Map([...scores.keys()].map((id, i) => [id, i]));
  const hits = [...scores]
    .sort((a, b) => b[1] - a[1] || first.get(a[0])! - first.get(b[0])!)
    .slice(0, limit)
    .map(([id, score]) => ({ id, score }));
  return { hits, warnings: [...new Set(rankings.flatMap((r) => r.warnings))] };
}
