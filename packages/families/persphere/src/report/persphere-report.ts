import type { RunEntity } from '@precis/db';
import {
  type Board,
  boardBlock,
  ciColumn,
  failedColumn,
  isComplete,
  judgedBy,
  numberColumn,
  type RankedBoard,
  type Ranked as RankedRow,
  type ReportBlock,
  type ReportColumn,
  type ReportFigure,
  type ReportSection,
  scoreTaskId,
  taskResult,
} from '@precis/engine/family';
import type { DataSource } from 'typeorm';
import type { PersphereNumbers, PersphereRow } from '../score/persphere-row.js';

type Ranked = RankedRow<PersphereRow>;

// The per-query values the ranks are tested on: each summary's Overall rating (1–10).
export const PERSPHERE_RANKING_METRIC = 'persphere:overall';

const num = (header: string, digits: number, value: (n: PersphereNumbers) => number | null) =>
  numberColumn<Ranked>(header, digits, (r) => (r.persphere ? value(r.persphere) : null));

const COLUMNS: ReportColumn<Ranked>[] = [
  { header: 'summarizer', show: (r) => r.summarizer },
  { header: 'strategy', show: (r) => r.strategy },
  { header: 'retriever', show: (r) => (r.persphere ? r.persphere.retriever : '') },
  num('k', 0, (n) => n.k),
  num('Overall@k', 2, (n) => n.overall),
  ciColumn<Ranked>('Overall 95% CI', 'overall', 2),
  num('Recall@k %', 1, (n) => n.recall),
  num('Cover@k %', 1, (n) => n.cover),
  num('Rp@k %', 1, (n) => n.rp),
  num('stance F1 %', 1, (n) => n.stanceF1),
  num('reference F1 %', 1, (n) => n.referenceF1),
  {
    header: 'samples',
    show: (r) => String(r.samples),
    csv: [{ header: 'samples', value: (r) => r.samples }],
  },
  failedColumn(),
  { header: 'judge', show: (r) => r.judge },
  { header: 'status', show: (r) => r.status },
];

function notes(rows: readonly PersphereRow[], metric: string): string[] {
  const warned = rows.filter((r) => r.retrievalWarnings > 0);
  return [
    `${metric}: Overall@k = mean 1–10 rating against the golden summary; Recall@k, Cover@k and Rp@k in percent, means over queries (Rp@k: covered perspectives whose extracted perspective entails the gold one); CIs from a bootstrap of the query mean. Overall@k and Rp@k judged by: ${[...new Set(rows.map((r) => r.judge))].join(', ')}; stance and reference macro-F1 (pooled over queries) answered by each system's own summarizer.`,
    warned.length
      ? `Rankings with a retrieval warning (no query terms after analysis, or k capped): ${warned.map((r) => `${r.system} ${r.retrievalWarnings}`).join(', ')}.`
      : 'No ranking had a retrieval warning.',
  ];
}

export interface PersphereReport {
  rows: PersphereRow[];
}

const metricsOf = (report: PersphereReport) => [...new Set(report.rows.map((r) => r.metric))];

// One board per persphere metric of the spec, ranked by Overall@k.
export function persphereBoards(report: PersphereReport): Board<PersphereRow>[] {
  const metrics = metricsOf(report);
  return metrics.map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    const judge = metrics.length > 1 ? `, ${judgedBy(rows.map((r) => r.judge))}` : '';
    return {
      key: metric,
      family: 'persphere',
      metric: 'persphere',
      label: metric,
      title: `PerSphere${judge}`,
      ranking: { metric: PERSPHERE_RANKING_METRIC, column: 'Overall@k' },
      rows,
      score: (r) => (r.persphere && isComplete(r.work) ? r.persphere.overall : null),
      ci95: (r) => r.ci95.overall ?? null,
      fields: (r) => ({ ...r }),
      columns: COLUMNS,
      notes: notes(rows, metric),
    };
  });
}

export const persphereBlocks = (_: PersphereReport, ranked: readonly RankedBoard[]): ReportBlock[] =>
  ranked.map((b) => boardBlock(b));

export async function loadPersphereReport(db: DataSource, run: RunEntity): Promise<PersphereReport> {
  const result = await taskResult<{ persphere?: PersphereRow[] }>(db, scoreTaskId(run.id));
  return { rows: result?.persphere ?? [] };
}

// One figure per metric: Overall@k (the judge's 1-10 rating) with its bootstrap CI.
export function persphereFigures(report: PersphereReport): ReportFigure[] {
  return metricsOf(report).map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      title: `PerSphere: Overall@k, ${judgedBy(rows.map((r) => r.judge))}`,
      metric: 'Overall@k (1–10)',
      higherIsBetter: true,
      points: rows.map((r) => ({
        system: r.system,
        score: r.persphere?.overall ?? null,
        ci95: r.ci95.overall ?? null,
        costUsd: null,
      })),
    };
  });
}

export const persphereReport: ReportSection<PersphereReport> = {
  load: loadPersphereReport,
  hasResults: (r) => r.rows.length > 0,
  boards: persphereBoards,
  blocks: persphereBlocks,
  figures: persphereFigures,
};
