import type { RunEntity } from '@precis/db';
import {
  describeWork,
  failedColumn,
  fixed,
  numberColumn,
  type Ranked,
  type ReportBlock,
  type ReportColumn,
  type ReportFigure,
  type ReportSection,
  type RunHeader,
  rankBy,
  rankColumn,
  reportTable,
  runHeader,
  scoreTaskId,
} from '@precis/engine';
import type {
  DimensionHumanCorrelation,
  DimensionLeaderboard,
  DimensionSystemRow,
} from '../dimensions/dimension-scores.js';
import { dimensionTrace } from './dimension-trace.js';

export interface DimensionReport {
  run: RunHeader;
  boards: DimensionLeaderboard[];
}

// The dimension leaderboards the score task stored (empty for runs without dimension judges).
export async function loadDimensionReport(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  run: RunEntity,
): Promise<DimensionReport> {
  const rows = (await db.query(`SELECT result FROM tasks WHERE id = $1`, [scoreTaskId(run.id)])) as {
    result: { dimensions?: DimensionLeaderboard[] } | null;
  }[];
  const boards = rows[0]?.result?.dimensions ?? [];
  return {
    run: runHeader(run),
    boards: boards.map((b) => ({ ...b, rows: b.rows.map(withWork) })),
  };
}

// Rows stored before failures were counted by kind: their per-dimension counts give the work.
function withWork(r: DimensionSystemRow): DimensionSystemRow {
  if (r.work) return r;
  const cells = Object.values(r.dimensions);
  const failed = cells.reduce((a, c) => a + c.failed, 0);
  const work = {
    summaries: { expected: 0, failed: 0 },
    judgments: { expected: cells.reduce((a, c) => a + c.summaries + c.failed, 0), failed },
  };
  // A mean over only the judgments that survived is not shown any more.
  const dimensions = Object.fromEntries(
    Object.entries(r.dimensions).map(([d, c]) => [
      d,
      c.failed ? { ...c, mean: null, ci95: null, bootstrapStd: null } : c,
    ]),
  );
  return { ...r, dimensions, work, status: describeWork(work) };
}

const num = (x: number | null | undefined) => fixed(x, 2);

// The mean over dimensions; null unless every dimension has a mean (a complete row).
function overall(r: DimensionSystemRow): number | null {
  const xs = Object.values(r.dimensions).map((c) => c.mean);
  if (xs.length === 0 || xs.some((m) => m === null)) return null;
  return (xs as number[]).reduce((a, b) => a + b, 0) / xs.length;
}

// Complete rows best first (ties by system name); rows without a judge mean unranked, last.
type RankedDimensionRow = Ranked<DimensionSystemRow>;

export const rankDimensionRows = (rows: readonly DimensionSystemRow[]): RankedDimensionRow[] =>
  rankBy(rows, overall);

// Boards as the JSON report gives them: rows in rank order, each with its rank.
export function rankedBoards(boards: readonly DimensionLeaderboard[]) {
  return boards.map((b) => ({ ...b, rows: rankDimensionRows(b.rows) }));
}

// A number column: shown with two decimals, unformatted in CSV.
const dimensionColumn = (header: string, value: (r: RankedDimensionRow) => number | null) =>
  numberColumn<RankedDimensionRow>(header, 2, value);

function columns(board: DimensionLeaderboard): ReportColumn<RankedDimensionRow>[] {
  const anyHuman = board.rows.some((r) => Object.values(r.dimensions).some((c) => c.human !== null));
  const cols: ReportColumn<RankedDimensionRow>[] = [
    rankColumn(),
    { header: 'system', show: (r) => r.system },
    { header: 'summarizer', show: (r) => r.summarizer },
    dimensionColumn('judge mean', overall),
  ];
  for (const d of board.dimensions) {
    const ci = (r: RankedDimensionRow) => r.dimensions[d]?.ci95 ?? null;
    cols.push(
      dimensionColumn(d, (r) => r.dimensions[d]?.mean ?? null),
      {
        header: `${d} 95% CI`,
        show: (r) => {
          const c = ci(r);
          return c ? `${num(c[0])}–${num(c[1])}` : 'n/a';
        },
        csv: [
          { header: `${d} 95% CI low`, value: (r) => ci(r)?.[0] ?? null },
          { header: `${d} 95% CI high`, value: (r) => ci(r)?.[1] ?? null },
        ],
      },
    );
    if (anyHuman) cols.push(dimensionColumn(`${d} human`, (r) => r.dimensions[d]?.human ?? null));
  }
  cols.push(failedColumn(), { header: 'status', show: (r) => r.status });
  return cols;
}

type CorrelationRow = { dimension: string; c: DimensionHumanCorrelation };

const CORRELATION_COLUMNS: ReportColumn<CorrelationRow>[] = [
  { header: 'dimension', show: (r) => r.dimension },
  {
    header: 'Spearman',
    show: (r) => num(r.c.spearman),
    csv: [{ header: 'Spearman', value: (r) => r.c.spearman }],
  },
  {
    header: 'Kendall',
    show: (r) => num(r.c.kendall),
    csv: [{ header: 'Kendall', value: (r) => r.c.kendall }],
  },
  {
    header: 'products',
    show: (r) => String(r.c.products),
    csv: [{ header: 'products', value: (r) => r.c.products }],
  },
];

// What the judge managed: every judgment failed, some failed, or all were made.
function judgedNote(board: DimensionLeaderboard): string {
  const expected = board.rows.reduce((a, r) => a + r.work.judgments.expected, 0);
  const failed = board.rows.reduce((a, r) => a + r.work.judgments.failed, 0);
  if (expected === 0) return ' Nothing to judge: every summary failed.';
  if (failed === expected) return ` Every judgment failed (${failed} of ${expected}): no judge scores.`;
  if (failed)
    return ` ${failed} of ${expected} judgments failed; rows with failures have no mean and no rank.`;
  return '';
}

function caption(board: DimensionLeaderboard): string {
  const templates = [...new Set(Object.values(board.templates))].join(', ');
  const failedSteps = board.failedSteps.length
    ? ` G-Eval steps failed for ${board.failedSteps.join(', ')} (not judged).`
    : '';
  return `Judge ${board.judge} (${board.family}, template ${templates}); ${board.samples} sample(s) at temperature ${board.temperature}, score = ${board.method === 'logprob-weighted' ? 'logprob-weighted mean' : 'mean of the parsed samples'} (1-5); CI from a ${board.bootstrapResamples}-resample bootstrap of the system mean.${judgedNote(board)}${failedSteps}`;
}

// Per-dimension judge leaderboards of a run, each naming its judge and template version, and
// each followed by its correlation with the human ratings when the dataset has them.
export function dimensionBlocks(report: DimensionReport): ReportBlock[] {
  return report.boards.flatMap((b) => {
    const blocks: ReportBlock[] = [
      {
        key: b.metric,
        heading: b.metric,
        table: reportTable(columns(b), rankDimensionRows(b.rows)),
        notes: [caption(b)],
      },
    ];
    if (b.humanCorrelation) {
      const rows = b.dimensions.flatMap((dimension) => {
        const c = b.humanCorrelation?.[dimension];
        return c ? [{ dimension, c }] : [];
      });
      blocks.push({
        key: `${b.metric}.human-correlation`,
        heading: `${b.metric}: correlation with human ratings (summary level)`,
        table: reportTable(CORRELATION_COLUMNS, rows),
      });
    }
    return blocks;
  });
}

// One figure per (board, dimension): the judge's mean score (1-5) with its bootstrap CI.
export function dimensionFigures(r: DimensionReport): ReportFigure[] {
  return r.boards.flatMap((b) =>
    b.dimensions.map((d) => ({
      key: `${b.metric}.${d}`,
      title: `${b.metric}: ${d}, judged by ${b.judge} (${b.templates[d] ?? 'template not recorded'})`,
      metric: `${d} (1–5)`,
      higherIsBetter: true,
      points: b.rows.map((row) => ({
        system: row.system,
        score: row.dimensions[d]?.mean ?? null,
        ci95: row.dimensions[d]?.ci95 ?? null,
        costUsd: null,
      })),
    })),
  );
}

export const dimensionReport: ReportSection<DimensionReport> = {
  load: (db, run) => loadDimensionReport(db, run),
  hasResults: (r) => r.boards.length > 0,
  blocks: dimensionBlocks,
  json: (r) => ({ dimensions: rankedBoards(r.boards) }),
  figures: dimensionFigures,
  trace: dimensionTrace,
};
