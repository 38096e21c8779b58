import { holmAdjust, pairedBootstrap, significanceRanks } from '@precis/metrics';

// A bootstrap over fewer documents resamples a handful of values and would call any consistent
// difference significant; below this two systems are not tested, so neither is shown better.
export const MIN_DOCUMENTS = 5;
export const DEFAULT_ALPHA = 0.05;

// One system on a leaderboard: the mean the board shows, which orders the rows (null: left out of
// the ranking, e.g. its work failed), and its per-document values of the ranking metric.
export interface RankCandidate {
  system: string;
  score: number | null;
  values: ReadonlyMap<string, number>;
}

export interface RankOptions {
  alpha: number;
  resamples: number;
  seed: number | string;
  // False when a lower value is better (a distance, an error rate).
  higherIsBetter?: boolean;
}

// A paired test of two ranked candidates (indices into the input) on the documents both scored;
// p is null when they share fewer than MIN_DOCUMENTS.
export interface PairTest {
  better: number;
  worse: number;
  documents: number;
  meanDiff: number;
  p: number | null;
  pHolm: number | null;
  significant: boolean;
}

export interface EvidenceRanking {
  // Per candidate, in input order: 1 + the candidates significantly better; null when left out.
  ranks: (number | null)[];
  // '1', '=2' (a rank two or more share), '–' (no rank).
  labels: string[];
  // Candidate indices as shown: ranked ones by score, best first (a higher mean never below a
  // lower one), ties by rank then name; the rest last, by name.
  order: number[];
  // The most documents any two ranked candidates share (what the tests could stand on).
  documents: number;
  tests: PairTest[];
  // Why ranks are shared when no test could be made, and where the tests are not transitive.
  notes: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const shortNumber = (x: number) => String(Number(x.toPrecision(4)));

function sharedDocuments(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): string[] {
  return [...a.keys()].filter((d) => b.has(d)).sort();
}

// Every two ranked candidates compared on the documents both scored; Holm's correction runs over
// the pairs that could be tested.
function testPairs(candidates: readonly RankCandidate[], ranked: readonly number[], opts: RankOptions) {
  const sign = opts.higherIsBetter === false ? -1 : 1;
  const raw = [];
  for (let x = 0; x < ranked.length; x++)
    for (let y = x + 1; y < ranked.length; y++) {
      const [i, j] = [ranked[x]!, ranked[y]!];
      const docs = sharedDocuments(candidates[i]!.values, candidates[j]!.values);
      const a = docs.map((d) => sign * candidates[i]!.values.get(d)!);
      const b = docs.map((d) => sign * candidates[j]!.values.get(d)!);
      const test =
        docs.length > 0 ? pairedBootstrap(a, b, { resamples: opts.resamples, seed: opts.seed }) : null;
      raw.push({ i, j, documents: docs.length, test, tested: docs.length >= MIN_DOCUMENTS });
    }
  const testedP = raw.filter((r) => r.tested).map((r) => r.test!.p);
  const adjusted = holmAdjust(testedP);
  let k = 0;
  return raw.map((r): PairTest => {
    const diff = r.test?.meanDiff ?? 0;
    const [better, worse] = diff >= 0 ? [r.i, r.j] : [r.j, r.i];
    const pHolm = r.tested ? adjusted[k++]! : null;
    return {
      better,
      worse,
      documents: r.documents,
      meanDiff: Math.abs(diff),
      p: r.tested ? r.test!.p : null,
      pHolm,
      significant: pHolm !== null && pHolm < opts.alpha,
    };
  });
}

function displayOrder(
  candidates: readonly RankCandidate[],
  ranks: readonly (number | null)[],
  higherIsBetter: boolean,
): number[] {
  const sign = higherIsBetter ? 1 : -1;
  const name = (i: number, j: number) => candidates[i]!.system.localeCompare(candidates[j]!.system);
  const idx = [...candidates.keys()];
  const ranked = idx
    .filter((i) => ranks[i] !== null)
    .sort(
      (i, j) => sign * (candidates[j]!.score! - candidates[i]!.score!) || ranks[i]! - ranks[j]! || name(i, j),
    );
  return [...ranked, ...idx.filter((i) => ranks[i] === null).sort(name)];
}

function rankLabels(ranks: readonly (number | null)[]): string[] {
  const counts = new Map<number, number>();
  for (const r of ranks) if (r !== null) counts.set(r, (counts.get(r) ?? 0) + 1);
  return ranks.map((r) => (r === null ? '–' : (counts.get(r) ?? 0) > 1 ? `=${r}` : String(r)));
}

// Why every ranked candidate shares rank 1 when no two of them could be tested.
function untestedNote(ranked: number, tests: readonly PairTest[], documents: number): string[] {
  if (ranked < 2 || tests.some((t) => t.p !== null)) return [];
  if (documents === 0)
    return ['No documents to compare (no per-document values of the ranking metric): all share rank 1.'];
  return [
    `Only ${plural(documents, 'document')}: no system can be shown better (a paired test needs ${MIN_DOCUMENTS}); all share rank 1.`,
  ];
}

// One line when a candidate with a better mean is ranked below one with a worse mean: the pair
// furthest apart in rank, then closest in mean, and how many more there are.
function intransitiveNote(
  candidates: readonly RankCandidate[],
  ranks: readonly (number | null)[],
  labels: readonly string[],
  order: readonly number[],
): string[] {
  const inverted: [number, number][] = [];
  const ranked = order.filter((i) => ranks[i] !== null);
  ranked.forEach((hi, x) => {
    for (const lo of ranked.slice(x + 1))
      if (ranks[hi]! > ranks[lo]! && candidates[hi]!.score !== candidates[lo]!.score) inverted.push([hi, lo]);
  });
  if (inverted.length === 0) return [];
  const gap = ([hi, lo]: [number, number]) => ranks[hi]! - ranks[lo]!;
  const spread = ([hi, lo]: [number, number]) => Math.abs(candidates[hi]!.score! - candidates[lo]!.score!);
  const [hi, lo] = [...inverted].sort((a, b) => gap(b) - gap(a) || spread(a) - spread(b))[0]!;
  const c = (i: number) =>
    `${candidates[i]!.system} (mean ${shortNumber(candidates[i]!.score!)}, rank ${labels[i]})`;
  const more = inverted.length > 1 ? ` (${plural(inverted.length - 1, 'more such pair')})` : '';
  return [
    `The paired tests are not transitive: ${c(hi)} is listed above ${c(lo)}${more}; rows follow the means, ranks the tests.`,
  ];
}

// The one rank rule of every leaderboard: a candidate's rank is 1 + the candidates significantly
// better on the ranking metric (paired bootstrap over the documents both scored, Holm-corrected).
export function rankByEvidence(candidates: readonly RankCandidate[], opts: RankOptions): EvidenceRanking {
  const rankedIdx = [...candidates.keys()].filter((i) => candidates[i]!.score !== null);
  const tests = testPairs(candidates, rankedIdx, opts);
  const better = new Set(tests.filter((t) => t.significant).map((t) => `${t.better}>${t.worse}`));
  const within = significanceRanks(rankedIdx.length, (x, y) => better.has(`${rankedIdx[x]}>${rankedIdx[y]}`));
  const ranks: (number | null)[] = candidates.map(() => null);
  rankedIdx.forEach((i, x) => {
    ranks[i] = within[x]!;
  });
  const labels = rankLabels(ranks);
  const order = displayOrder(candidates, ranks, opts.higherIsBetter !== false);
  const documents = tests.length
    ? Math.max(...tests.map((t) => t.documents))
    : (candidates[rankedIdx[0] ?? -1]?.values.size ?? 0);
  const notes = [
    ...untestedNote(rankedIdx.length, tests, documents),
    ...intransitiveNote(candidates, ranks, labels, order),
  ];
  return { ranks, labels, order, documents, tests, notes };
}
