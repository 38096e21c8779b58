import type { RunEntity } from '@precis/db';
import {
  type Board,
  boardBlock,
  describeWork,
  failedColumn,
  fixed,
  numberColumn,
  type Ranked,
  type RankedBoard,
  type ReportBlock,
  type ReportColumn,
  type ReportFigure,
  type ReportSection,
  type RowWork,
  type RunHeader,
  reportTable,
  runHeader,
  scoreTaskId,
  taskResult,
} from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import type {
  DimensionCell,
  DimensionHumanCorrelation,
  DimensionLeaderboard,
  DimensionSystemRow,
} from '../dimensions/dimension-scores.js';
import { dimensionTrace } from './dimension-trace.js';
import { humanCorrelationNotes } from './human-correlation-notes.js';

export interface DimensionReport {
  run: RunHeader;
  boards: DimensionLeaderboard[];
}

// The dimension leaderboards the score task stored (empty for runs without dimension judges).
export async function loadDimensionReport(db: DataSource, run: RunEntity): Promise<DimensionReport> {
  const result = await taskResult<{ dimensions?: DimensionLeaderboard[] }>(db, scoreTaskId(run.id));
  const boards = result?.dimensions ?? [];
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

// A system on one dimension's board: its judgments of that dimension are the board's work.
interface DimensionRow {
  system: string;
  summarizer: string;
  cell: DimensionCell;
  work: RowWork;
  status: string;
}

type RankedDimensionRow = Ranked<DimensionRow>;

function dimensionRow(r: DimensionSystemRow, dimension: string): DimensionRow {
  const cell = r.dimensions[dimension] ?? {
    mean: null,
    ci95: null,
    bootstrapStd: null,
    summaries: 0,
    failed: 0,
    human: null,
  };
  const work = {
    summaries: r.work.summaries,
    judgments: { expected: cell.summaries + cell.failed, failed: cell.failed },
  };
  return { system: r.system, summarizer: r.summarizer, cell, work, status: describeWork(work) };
}

function columns(board: DimensionLeaderboard, dimension: string): ReportColumn<RankedDimensionRow>[] {
  const anyHuman = board.rows.some((r) => r.dimensions[dimension]?.human != null);
  const ci = (r: RankedDimensionRow) => r.cell.ci95;
  return [
    { header: 'summarizer', show: (r) => r.summarizer },
    numberColumn<RankedDimensionRow>(dimension, 2, (r) => r.cell.mean),
    {
      header: `${dimension} 95% CI`,
      show: (r) => {
        const c = ci(r);
        return c ? `${num(c[0])}–${num(c[1])}` : 'n/a';
      },
      csv: [
        { header: `${dimension} 95% CI low`, value: (r) => ci(r)?.[0] ?? null },
        { header: `${dimension} 95% CI high`, value: (r) => ci(r)?.[1] ?? null },
      ],
    },
    ...(anyHuman ? [numberColumn<RankedDimensionRow>(`${dimension} human`, 2, (r) => r.cell.human)] : []),
    failedColumn(),
    { header: 'status', show: (r) => r.status },
  ];
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

// What the judge managed on one dimension: every judgment failed, some failed, or all were made.
function judgedNote(board: DimensionLeaderboard, dimension: string): string {
  const rows = board.rows.map((r) => dimensionRow(r, dimension));
  const expected = rows.reduce((a, r) => a + r.work.judgments.expected, 0);
  const failed = rows.reduce((a, r) => a + r.work.judgments.failed, 0);
  if (expected === 0) return ' Nothing to judge: every summary failed.';
  if (failed === expected) return ` Every judgment failed (${failed} of ${expected}): no judge scores.`;
  if (failed)
    return ` ${failed} of ${expected} judgments failed; rows with failures have no mean and no rank.`;
  return '';
}

function caption(board: DimensionLeaderboard, dimension: string): string {
  const template = board.templates[dimension] ?? 'not recorded';
  const failedSteps = board.failedSteps.includes(dimension)
    ? ` G-Eval could not write the evaluation steps of ${dimension} (not judged).`
    : '';
  return `Judge ${board.judge} (${board.family}, template ${template}); ${board.samples} sample(s) at temperature ${board.temperature}, score = ${board.method === 'logprob-weighted' ? 'logprob-weighted mean' : 'mean of the parsed samples'} (1-5); CI from a ${board.bootstrapResamples}-resample bootstrap of the system mean.${judgedNote(board, dimension)}${failedSteps}`;
}

// One leaderboard per (dimensions metric, dimension), ranked on the per-summary judge scores.
export function dimensionBoards(report: DimensionReport): Board<DimensionRow>[] {
  return report.boards.flatMap((b) =>
    b.dimensions.map((d) => ({
      key: `${b.metric}.${d}`,
      family: 'opinion',
      metric: 'dimensions',
      label: b.metric,
      title: `Opinion dimensions — ${d}`,
      ranking: { metric: `dimension:${d}`, column: d },
      rows: b.rows.map((r) => dimensionRow(r, d)),
      score: (r: DimensionRow) => r.cell.mean,
      ci95: (r: DimensionRow) => r.cell.ci95,
      fields: (r: DimensionRow) => ({
        summarizer: r.summarizer,
        bootstrapStd: r.cell.bootstrapStd,
        summaries: r.cell.summaries,
        human: r.cell.human,
      }),
      columns: columns(b, d),
      notes: [caption(b, d)],
      details: {
        dimension: d,
        judge: b.judge,
        judgeFamily: b.family,
        template: b.templates[d] ?? null,
        samples: b.samples,
        temperature: b.temperature,
        method: b.method,
        bootstrapResamples: b.bootstrapResamples,
        humanCorrelation: b.humanCorrelation?.[d] ?? null,
      },
    })),
  );
}

// Each dimension's leaderboard, naming its judge and template version, then each metric's
// correlation with the human ratings, or why there is none.
export function dimensionBlocks(report: DimensionReport, ranked: readonly RankedBoard[]): ReportBlock[] {
  return report.boards.flatMap((b) => {
    const blocks = ranked.filter((r) => r.board.label === b.metric).map((r) => boardBlock(r));
    const rows = b.dimensions.flatMap((dimension) => {
      const c = b.humanCorrelation?.[dimension];
      return c ? [{ dimension, c }] : [];
    });
    const notes = humanCorrelationNotes(b);
    blocks.push({
      key: `${b.metric}.human-correlation`,
      heading: `Opinion dimensions: correlation with human ratings (summary level)`,
      label: b.metric,
      ...(b.humanCorrelation ? { table: reportTable(CORRELATION_COLUMNS, rows) } : {}),
      ...(notes.length ? { notes } : {}),
    });
    return blocks;
  });
}

// One figure per (board, dimension): the judge's mean score (1-5) with its bootstrap CI.
export function dimensionFigures(r: DimensionReport): ReportFigure[] {
  return r.boards.flatMap((b) =>
    b.dimensions.map((d) => ({
      key: `${b.metric}.${d}`,
      title: `Opinion dimensions — ${d}, judged by ${b.judge} (${b.templates[d] ?? 'template not recorded'})`,
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
  boards: dimensionBoards,
  blocks: dimensionBlocks,
  figures: dimensionFigures,
  trace: dimensionTrace,
};
