import type { RunEntity } from '@precis/db';
import {
  type Board,
  boardBlock,
  ciColumn,
  failedColumn,
  fixed,
  isComplete,
  numberColumn,
  type RankedBoard,
  type Ranked as RankedRow,
  type ReportBlock,
  type ReportColumn,
  type ReportFigure,
  type ReportSection,
  reportTable,
  scoreTaskId,
  taskResult,
} from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import { GOR_CRITERIA } from '../prompts/gor.parsers.js';
import type { GorPairwise, GorRow } from '../score/gor-row.js';
import { gorTrace } from './gor-trace.js';

type Ranked = RankedRow<GorRow>;

// The per-meeting values the ranks are tested on: each summary's ROUGE-L F1 (percent).
export const GOR_RANKING_METRIC = 'rougeL';

const COLUMNS: ReportColumn<Ranked>[] = [
  { header: 'summarizer', show: (r) => r.summarizer },
  { header: 'strategy', show: (r) => r.strategy },
  { header: 'ranker', show: (r) => r.ranker },
  numberColumn('ROUGE-1 %', 2, (r) => r.rouge?.rouge1),
  numberColumn('ROUGE-2 %', 2, (r) => r.rouge?.rouge2),
  numberColumn('ROUGE-L %', 2, (r) => r.rouge?.rougeL),
  ciColumn<Ranked>('ROUGE-L 95% CI', 'rougeL', 2),
  numberColumn('loss first', 3, (r) => r.training?.lossFirst),
  numberColumn('loss last', 3, (r) => r.training?.lossLast),
  numberColumn('train s', 1, (r) => r.training?.seconds),
  {
    header: 'samples',
    show: (r) => String(r.samples),
    csv: [{ header: 'samples', value: (r) => r.samples }],
  },
  failedColumn(),
  { header: 'status', show: (r) => r.status },
];

type PairRow = GorPairwise & { system: string };

const PAIR_COLUMNS: ReportColumn<PairRow>[] = [
  { header: 'system', show: (r) => r.system },
  { header: 'baseline', show: (r) => r.baseline },
  ...GOR_CRITERIA.map((c) => numberColumn<PairRow>(`${c} win %`, 1, (r) => r.winRate?.[c])),
  { header: 'meetings', show: (r) => String(r.pairs), csv: [{ header: 'meetings', value: (r) => r.pairs }] },
  { header: 'failed', show: (r) => String(r.failed), csv: [{ header: 'failed', value: (r) => r.failed }] },
  { header: 'judge', show: (r) => r.judge },
];

function notes(rows: readonly GorRow[], metric: string): string[] {
  const trained = rows.filter((r) => r.training);
  return [
    `${metric}: ROUGE-1/2/L F1 in percent (rouge-score, the best of each meeting's references), means over meetings with a bootstrap CI of the ROUGE-L mean.`,
    trained.length
      ? `GoR training, one model per system on all its meetings' graphs (2-layer 4-head GAT, TensorFlow.js): ${trained.map((r) => `${r.system} ${r.training!.graphs} graphs, ${r.training!.epochs} epochs${r.training!.reused ? ', weights reused from an earlier run' : ''}, inference ${fixed(r.training!.inferenceMs, 1)} ms per meeting`).join('; ')}.`
      : 'No system trained a GoR model.',
  ];
}

export interface GorReport {
  rows: GorRow[];
}

const metricsOf = (report: GorReport) => [...new Set(report.rows.map((r) => r.metric))];

// One board per rouge metric of the spec, ranked by ROUGE-L.
export function gorBoards(report: GorReport): Board<GorRow>[] {
  const metrics = metricsOf(report);
  return metrics.map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      family: 'gor',
      metric: 'rouge',
      label: metric,
      title: metrics.length > 1 ? `GoR (ROUGE, ${metric})` : 'GoR (ROUGE)',
      ranking: { metric: GOR_RANKING_METRIC, column: 'ROUGE-L %' },
      rows,
      score: (r) => (r.rouge && isComplete(r.work) ? r.rouge.rougeL : null),
      ci95: (r) => r.ci95.rougeL ?? null,
      fields: (r) => ({ ...r }),
      columns: COLUMNS,
      notes: notes(rows, metric),
    };
  });
}

export function gorBlocks(report: GorReport, ranked: readonly RankedBoard[]): ReportBlock[] {
  const blocks = ranked.map((b) => boardBlock(b));
  const pairs = report.rows.flatMap((r) => r.pairwise.map((p) => ({ system: r.system, ...p })));
  if (pairs.length)
    blocks.push({
      key: 'gor-pairwise',
      heading: 'GoR pairwise judge (win rate against the baseline, both presentation orders)',
      table: reportTable(PAIR_COLUMNS, pairs),
      notes: ['Each meeting is judged in both orders; a win in one order counts half.'],
    });
  return blocks;
}

export async function loadGorReport(db: DataSource, run: RunEntity): Promise<GorReport> {
  const result = await taskResult<{ gor?: GorRow[] }>(db, scoreTaskId(run.id));
  return { rows: result?.gor ?? [] };
}

// One figure per metric: ROUGE-L F1 with its bootstrap CI.
export function gorFigures(report: GorReport): ReportFigure[] {
  const metrics = metricsOf(report);
  return metrics.map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      title: `GoR (ROUGE${metrics.length > 1 ? `, ${metric}` : ''}): ROUGE-L F1, rouge-score against the best reference`,
      metric: 'ROUGE-L F1 (%)',
      higherIsBetter: true,
      points: rows.map((r) => ({
        system: r.system,
        score: r.rouge?.rougeL ?? null,
        ci95: r.ci95.rougeL ?? null,
        costUsd: null,
      })),
    };
  });
}

export const gorReport: ReportSection<GorReport> = {
  load: loadGorReport,
  hasResults: (r) => r.rows.length > 0,
  boards: gorBoards,
  blocks: gorBlocks,
  figures: gorFigures,
  trace: gorTrace,
};
