import type { RunEntity } from '@precis/db';
import { holmAdjust, pairedBootstrap, significanceRanks } from '@precis/metrics';
import type { DataSource } from 'typeorm';
import { findRun } from '../queries/run-queries.js';

export class LeaderboardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaderboardError';
  }
}

// One system of one run, scored per document by the chosen metric.
export interface BoardEntry {
  run: { id: string; name: string };
  system: string;
  // What produced the values (judge model or engine, with template version).
  producedBy: string;
  // Mean over the documents every entry shares.
  mean: number;
  // 1 + the entries significantly better (Holm-corrected paired bootstrap): ties share a rank.
  rank: number;
}

export interface BoardComparison {
  better: string;
  worse: string;
  meanDiff: number;
  // Null when too few documents are shared for a test (MIN_DOCUMENTS).
  p: number | null;
  pHolm: number | null;
  significant: boolean;
}

// A bootstrap over fewer documents resamples a handful of values and would call any consistent
// difference significant; below this no comparison is tested and every system shares rank 1.
export const MIN_DOCUMENTS = 5;

export interface CrossRunBoard {
  metric: string;
  documents: number;
  alpha: number;
  resamples: number;
  entries: BoardEntry[];
  comparisons: BoardComparison[];
}

type Row = {
  run_id: string;
  system: string;
  document_id: string;
  metric: string;
  value: number;
  produced_by: string;
};

const label = (e: { run: { id: string }; system: string }) => `${e.system}@${e.run.id.slice(0, 8)}`;

function chooseMetric(rows: readonly Row[], runs: readonly RunEntity[], asked: string | undefined): string {
  const perRun = runs.map((r) => new Set(rows.filter((x) => x.run_id === r.id).map((x) => x.metric)));
  const common = [...(perRun[0] ?? [])].filter((m) => perRun.every((s) => s.has(m))).sort();
  if (asked !== undefined) {
    if (!common.includes(asked))
      throw new LeaderboardError(
        `metric "${asked}" is not scored per document in every run; choose one of: ${common.join(', ') || '(none)'}`,
      );
    return asked;
  }
  if (common.length === 1) return common[0]!;
  if (common.length === 0)
    throw new LeaderboardError(
      'the runs share no metric scored per document (their families or metrics differ)',
    );
  throw new LeaderboardError(
    `the runs share several metrics: choose one with --metric (${common.join(', ')})`,
  );
}

// Every two entries compared on their paired scores; `significant` holds "i>j" for each
// entry i significantly better than j after Holm's correction.
function compareAll(
  entries: readonly { run: RunEntity; system: string }[],
  scores: readonly number[][],
  opts: { resamples: number; alpha: number; seed: number },
): { comparisons: BoardComparison[]; significant: Set<string> } {
  const pairs: [number, number][] = [];
  for (let i = 0; i < entries.length; i++) for (let j = i + 1; j < entries.length; j++) pairs.push([i, j]);
  const tests = pairs.map(([i, j]) =>
    pairedBootstrap(scores[i]!, scores[j]!, { resamples: opts.resamples, seed: opts.seed }),
  );
  const tested = (scores[0]?.length ?? 0) >= MIN_DOCUMENTS;
  const adjusted = holmAdjust(tests.map((t) => t.p));
  const significant = new Set<string>();
  const comparisons = pairs.map(([i, j], k) => {
    const [hi, lo] = tests[k]!.meanDiff >= 0 ? [i, j] : [j, i];
    const isSignificant = tested && adjusted[k]! < opts.alpha;
    if (isSignificant) significant.add(`${hi}>${lo}`);
    return {
      better: label(entries[hi]!),
      worse: label(entries[lo]!),
      meanDiff: Math.abs(tests[k]!.meanDiff),
      p: tested ? tests[k]!.p : null,
      pHolm: tested ? adjusted[k]! : null,
      significant: isSignificant,
    };
  });
  return { comparisons, significant };
}

// The systems of several runs ranked on one metric over the documents they all scored: paired
// bootstrap tests between every two entries on those documents, Holm-corrected.
export async function crossRunLeaderboard(
  db: DataSource,
  refs: readonly string[],
  opts: { metric?: string; resamples?: number; seed?: number; alpha?: number } = {},
): Promise<CrossRunBoard> {
  if (refs.length < 1) throw new LeaderboardError('give at least one run (--runs a,b,...)');
  const runs = await Promise.all(refs.map((r) => findRun(db, r)));
  const rows: Row[] = await db.query(
    `SELECT run_id, system, document_id, metric, value, produced_by FROM metric_values
      WHERE run_id = ANY($1::uuid[]) AND document_id IS NOT NULL AND value IS NOT NULL`,
    [runs.map((r) => r.id)],
  );
  const metric = chooseMetric(rows, runs, opts.metric);
  const byEntry = new Map<
    string,
    { run: RunEntity; system: string; producedBy: Set<string>; values: Map<string, number> }
  >();
  for (const r of rows.filter((x) => x.metric === metric)) {
    const run = runs.find((x) => x.id === r.run_id)!;
    const key = `${r.run_id}:${r.system}`;
    const e = byEntry.get(key) ?? { run, system: r.system, producedBy: new Set<string>(), values: new Map() };
    e.producedBy.add(r.produced_by);
    e.values.set(r.document_id, Number(r.value));
    byEntry.set(key, e);
  }
  const entries = [...byEntry.values()];
  const shared = [...(entries[0]?.values.keys() ?? [])]
    .filter((d) => entries.every((e) => e.values.has(d)))
    .sort();
  if (shared.length === 0)
    throw new LeaderboardError(
      `the runs' systems share no document scored by ${metric}: compare runs on one dataset`,
    );
  const scores = entries.map((e) => shared.map((d) => e.values.get(d)!));
  const means = scores.map((s) => s.reduce((a, b) => a + b, 0) / s.length);
  const resamples = opts.resamples ?? 1000;
  const alpha = opts.alpha ?? 0.05;
  const { comparisons, significant } = compareAll(entries, scores, {
    resamples,
    alpha,
    seed: opts.seed ?? 1,
  });
  const ranks = significanceRanks(entries.length, (i, j) => significant.has(`${i}>${j}`));
  const board = entries.map((e, i) => ({
    run: { id: e.run.id, name: e.run.name },
    system: e.system,
    producedBy: [...e.producedBy].sort().join(' | '),
    mean: means[i]!,
    rank: ranks[i]!,
  }));
  board.sort((a, b) => a.rank - b.rank || b.mean - a.mean || label(a).localeCompare(label(b)));
  return { metric, documents: shared.length, alpha, resamples, entries: board, comparisons };
}
