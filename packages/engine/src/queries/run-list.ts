import { type RunEntity, toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { openOf } from '../planner/run-progress.js';
import type { FullRunReport } from '../report/render-run-report.js';
import { reportSections } from '../report/render-run-report.js';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { runsCostRows } from '../stores/ledger.store.js';
import { runsStageCounterRows } from '../stores/runs.store.js';
import { storedHeadlines } from '../stores/tasks.store.js';
import type { StageCounts } from './run-queries.js';

// A run's primary metric at a glance: its first leaderboard's ranking column and the system with
// the best mean on it, with its rank label and how many systems share that rank (a tie stays one).
export interface RunHeadline {
  // The leaderboard's key and title, e.g. '<metric>.0', 'Score (what it measures)'.
  section: string;
  title: string;
  // The ranking column, e.g. 'Score', 'ROUGE-L %'.
  metric: string;
  system: string;
  score: number;
  higherIsBetter: boolean;
  // e.g. '1' or '=1', and the other systems that share the rank.
  rankLabel: string;
  tiedWith: number;
}

// What a list of runs shows of each, as the run's own page does.
export interface RunListFigures {
  tasks: Record<string, StageCounts>;
  // Spent (settled calls) and reserved by calls not settled yet, as usageSoFar counts them.
  costUsd: number;
  reservedUsd: number;
  datasets: string[];
  headline: RunHeadline | null;
}

// The headline of a run's report: the first section's best ranked row; null with no ranked row.
export function runHeadline(report: FullRunReport): RunHeadline | null {
  const [first] = reportSections(report);
  const best = first?.rows.find((r) => r.rank !== null && r.score !== null);
  if (!first || !best) return null;
  return {
    section: first.key,
    title: first.title,
    metric: first.rankingColumn,
    system: best.system,
    score: best.score!,
    higherIsBetter: first.higherIsBetter,
    rankLabel: best.rankLabel,
    tiedWith: first.rows.filter((r) => r !== best && r.rank === best.rank).length,
  };
}

// A page of runs' figures in three queries, whatever the page's size: their counters, their
// ledger grouped by run, and the headlines stored with their score tasks.
export async function runListFigures(
  db: DataSource,
  runs: readonly RunEntity[],
): Promise<Map<string, RunListFigures>> {
  const ids = runs.map((r) => r.id);
  const out = new Map<string, RunListFigures>();
  if (ids.length === 0) return out;
  const [counters, costs, headlines] = await Promise.all([
    runsStageCounterRows(db, ids),
    runsCostRows(db, ids),
    storedHeadlines(db, ids),
  ]);
  for (const run of runs) {
    const spec = run.spec as Partial<BenchmarkSpec>;
    out.set(run.id, {
      tasks: {},
      costUsd: 0,
      reservedUsd: 0,
      datasets: (spec.datasets ?? []).map((d) => d.name),
      headline: null,
    });
  }
  for (const c of counters) {
    const totals = {
      total: toNumber(c.total as string),
      done: toNumber(c.done as string),
      failed: toNumber(c.failed as string),
      cancelled: toNumber(c.cancelled as string),
    };
    const figures = out.get(c.run_id);
    if (figures) figures.tasks[c.key] = { ...totals, open: openOf(totals) };
  }
  for (const c of costs) {
    const figures = out.get(c.run_id);
    if (figures) Object.assign(figures, { costUsd: Number(c.cost), reservedUsd: Number(c.reserved) });
  }
  for (const [id, headline] of headlines) {
    const figures = out.get(id);
    if (figures) figures.headline = headline;
  }
  return out;
}
