import type { Run } from '@precis/contracts';
import type { RunEntity } from '@precis/db';
import type { BenchmarkSpec, RunHeadline, RunListFigures, StageCounts } from '@precis/engine';
import type { CliContext } from '../context.js';
import { formatTable, printJson } from '../output.js';
import { remoteRunStatus } from '../runtime/remote-runs.js';

// A best system that shares its rank is not the one winner: say so.
export const tiedText = (b: { rankLabel?: string; tiedWith?: number }) =>
  b.tiedWith ? `, rank ${b.rankLabel} with ${b.tiedWith} other${b.tiedWith === 1 ? '' : 's'}` : '';

// One line of `precis runs ls` (and --json), local or from a gateway: the figures the run's own
// page shows (tasks, cost), its datasets and its primary metric's best system.
export interface RunListRow {
  id: string;
  name: string;
  status: string;
  createdAt: string | null;
  finishedAt: string | null;
  datasets: string[];
  // Local runs only: a gateway's list leaves the spec out.
  systems?: string[];
  tasks: Record<string, StageCounts>;
  // Spent by settled calls, and reserved by calls not settled yet.
  costUsd: number;
  reservedUsd: number;
  best: RunHeadline | null;
  error: string | null;
}

export function localRunRow(run: RunEntity, figures: RunListFigures | undefined): RunListRow {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    datasets: figures?.datasets ?? [],
    systems: ((run.spec as unknown as BenchmarkSpec).systems ?? []).map((s) => s.name),
    tasks: figures?.tasks ?? {},
    costUsd: figures?.costUsd ?? 0,
    reservedUsd: figures?.reservedUsd ?? 0,
    best: figures?.headline ?? null,
    error: run.error,
  };
}

// Per stage from the gateway's "<stage>.<state>" counts.
function stagesOf(taskCounts: Record<string, number>): Record<string, StageCounts> {
  const out: Record<string, StageCounts> = {};
  for (const [key, n] of Object.entries(taskCounts)) {
    const [stage, state] = key.split('.');
    if (!stage || !state) continue;
    out[stage] ??= { total: 0, done: 0, failed: 0, cancelled: 0, open: 0 };
    if (state in out[stage]) out[stage][state as keyof StageCounts] = Number(n);
  }
  return out;
}

export function remoteRunRow(run: Run): RunListRow {
  return {
    id: run.id,
    name: run.name,
    status: remoteRunStatus(run),
    createdAt: run.createTime?.toISOString() ?? null,
    finishedAt: run.finishTime?.toISOString() ?? null,
    datasets: run.datasets ?? [],
    tasks: stagesOf(run.taskCounts),
    costUsd: run.costUsd,
    reservedUsd: run.reservedUsd ?? 0,
    best: run.headline ?? null,
    error: run.error || null,
  };
}

// '100.0', '11.18', '4.57': two decimals at most, one at least.
export const formatScore = (x: number): string => {
  const two = x.toFixed(2);
  return two.endsWith('0') ? x.toFixed(1) : two;
};

const sum = (r: RunListRow, k: keyof StageCounts) => Object.values(r.tasks).reduce((a, c) => a + c[k], 0);

const cost = (r: RunListRow) =>
  `$${r.costUsd.toFixed(4)}${r.reservedUsd ? ` (+$${r.reservedUsd.toFixed(4)} reserved)` : ''}`;

const best = (b: RunHeadline | null) =>
  b ? `${b.metric} ${formatScore(b.score)} (${b.system}${tiedText(b)})` : '-';

// The table (or JSON) of `precis runs ls`, local or --remote.
export function printRunList(ctx: CliContext, rows: readonly RunListRow[], json: boolean): void {
  if (json) {
    printJson(ctx, rows);
    return;
  }
  ctx.stdout.write(
    `${formatTable(
      ['ID', 'NAME', 'STATUS', 'CREATED', 'DATASETS', 'TASKS DONE/FAILED/OPEN', 'COST', 'BEST'],
      rows.map((r) => [
        r.id.slice(0, 8),
        r.name,
        r.status,
        (r.createdAt ?? '').replace(/\.\d+Z$/, 'Z'),
        r.datasets.join(','),
        `${sum(r, 'done')}/${sum(r, 'failed')}/${sum(r, 'open')}`,
        cost(r),
        best(r.best),
      ]),
    )}\n`,
  );
}
