import type { RunEntity } from '@precis/db';
import {
  ciColumn,
  failedColumn,
  judgedBy,
  numberColumn,
  type Ranked as RankedRow,
  type ReportBlock,
  type ReportColumn,
  type ReportFigure,
  type ReportSection,
  rankBy,
  rankColumn,
  reportTable,
  scoreTaskId,
} from '@precis/engine';
import type { DataSource } from 'typeorm';
import type { PersphereNumbers, PersphereRow } from '../score/persphere-row.js';

type Ranked = RankedRow<PersphereRow>;

// Complete rows by Overall@k (ties by system name) within their metric; the rest unranked, last.
export const rankPersphereRows = (rows: readonly PersphereRow[]): Ranked[] =>
  rankBy(
    rows,
    (r) => r.persphere?.overall ?? null,
    (r) => r.metric,
  );

const num = (header: string, digits: number, value: (n: PersphereNumbers) => number | null) =>
  numberColumn<Ranked>(header, digits, (r) => (r.persphere ? value(r.persphere) : null));

const COLUMNS: ReportColumn<Ranked>[] = [
  rankColumn(),
  { header: 'system', show: (r) => r.system },
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

export function persphereBlocks(report: PersphereReport): ReportBlock[] {
  return [...new Set(report.rows.map((r) => r.metric))].map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      heading: `PerSphere (${metric})`,
      table: reportTable(COLUMNS, rankPersphereRows(rows)),
      notes: notes(rows, metric),
    };
  });
}

export async function loadPersphereReport(db: DataSource, run: RunEntity): Promise<PersphereReport> {
  const rows = (await db.query('SELECT result FROM tasks WHERE id = $1', [scoreTaskId(run.id)])) as {
    result: { persphere?: PersphereRow[] } | null;
  }[];
  return { rows: rows[0]?.result?.persphere ?? [] };
}

// One figure per metric: Overall@k (the judge's 1-10 rating) with its bootstrap CI.
export function persphereFigures(report: PersphereReport): ReportFigure[] {
  return [...new Set(report.rows.map((r) => r.metric))].map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      title: `PerSphere (${metric}): Overall@k, ${judgedBy(rows.map((r) => r.judge))}`,
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
  blocks: persphereBlocks,
  json: (r) => ({ persphere: rankPersphereRows(r.rows) }),
  figures: persphereFigures,
};
