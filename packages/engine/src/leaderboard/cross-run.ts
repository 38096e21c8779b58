import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import { InvalidInputError } from '../errors/domain-errors.js';
import { findRun } from '../queries/run-queries.js';
import { type DocumentValueRow, runsDocumentValueRows } from '../stores/metric-values.store.js';
import { DEFAULT_ALPHA, rankByEvidence } from './evidence-rank.js';

// The runs or the metric asked for cannot make one board.
export class LeaderboardError extends InvalidInputError {}

// One system of one run, scored per document by the chosen metric.
export interface BoardEntry {
  run: { id: string; name: string };
  system: string;
  // What produced the values (judge model or engine, with template version).
  producedBy: string;
  // Mean over the documents every entry shares.
  mean: number;
  // 1 + the entries significantly better (Holm-corrected paired bootstrap): ties share a rank,
  // shown '=2'.
  rank: number;
  rankLabel: string;
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

export interface CrossRunBoard {
  metric: string;
  documents: number;
  alpha: number;
  resamples: number;
  // By mean, best first (a higher mean never below a lower one).
  entries: BoardEntry[];
  comparisons: BoardComparison[];
  // Why every entry shares rank 1, or where the tests are not transitive.
  notes: string[];
}

type Row = DocumentValueRow;

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

// The systems of several runs ranked on one metric over the documents they all scored: paired
// bootstrap tests between every two entries on those documents, Holm-corrected.
export async function crossRunLeaderboard(
  db: DataSource,
  refs: readonly string[],
  opts: { metric?: string; resamples?: number; seed?: number; alpha?: number } = {},
): Promise<CrossRunBoard> {
  if (refs.length < 1) throw new LeaderboardError('give at least one run (--runs a,b,...)');
  const runs = await Promise.all(refs.map((r) => findRun(db, r)));
  const rows = await runsDocumentValueRows(
    db,
    runs.map((r) => r.id),
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
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const ranking = rankByEvidence(
    entries.map((e, i) => ({
      system: label(e),
      score: means[i]!,
      values: new Map(shared.map((d) => [d, e.values.get(d)!])),
    })),
    { resamples, alpha, seed: opts.seed ?? 1 },
  );
  const board = ranking.order.map((i) => ({
    run: { id: entries[i]!.run.id, name: entries[i]!.run.name },
    system: entries[i]!.system,
    producedBy: [...entries[i]!.producedBy].sort().join(' | '),
    mean: means[i]!,
    rank: ranking.ranks[i]!,
    rankLabel: ranking.labels[i]!,
  }));
  const comparisons = ranking.tests.map((t) => ({
    better: label(entries[t.better]!),
    worse: label(entries[t.worse]!),
    meanDiff: t.meanDiff,
    p: t.p,
    pHolm: t.pHolm,
    significant: t.significant,
  }));
  return {
    metric,
    documents: shared.length,
    alpha,
    resamples,
    entries: board,
    comparisons,
    notes: ranking.notes,
  };
}
