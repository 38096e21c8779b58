import type { RunEntity } from '@precis/db';
import {
  failedColumn,
  fixed,
  type ReportBlock,
  type ReportColumn,
  type ReportSection,
  rankColumn,
  reportTable,
  scoreTaskId,
} from '@precis/engine';
import { OPINION_ERROR_TYPES } from '@precis/metrics';
import type { DataSource } from 'typeorm';
import type { KgdsNumbers, KgdsRow } from '../score/kgds-row.js';
import { kgdsTrace } from './kgds-trace.js';

type Ranked = KgdsRow & { rank: number | null };

// Complete rows by OP_GM (ties by system name); rows without numbers unranked, last.
export function rankKgdsRows(rows: readonly KgdsRow[]): Ranked[] {
  const ranked = rows
    .filter((r) => r.kgds !== null)
    .sort((a, b) => b.kgds!.opGm - a.kgds!.opGm || a.system.localeCompare(b.system))
    .map((r, i) => ({ rank: i + 1, ...r }));
  const rest = rows
    .filter((r) => r.kgds === null)
    .sort((a, b) => a.system.localeCompare(b.system))
    .map((r) => ({ rank: null, ...r }));
  return [...ranked, ...rest];
}

const num = (header: string, value: (n: KgdsNumbers) => number | null | undefined): ReportColumn<Ranked> => ({
  header,
  show: (r) => fixed(r.kgds ? value(r.kgds) : null, 1),
  csv: [{ header, value: (r) => (r.kgds ? (value(r.kgds) ?? null) : null) }],
});

const ciColumn = (header: string, key: string): ReportColumn<Ranked> => ({
  header,
  show: (r) => (r.ci95[key] ? `${fixed(r.ci95[key][0], 1)}–${fixed(r.ci95[key][1], 1)}` : 'n/a'),
  csv: [
    { header: `${header} low`, value: (r) => r.ci95[key]?.[0] ?? null },
    { header: `${header} high`, value: (r) => r.ci95[key]?.[1] ?? null },
  ],
});

const COLUMNS: ReportColumn<Ranked>[] = [
  rankColumn(),
  { header: 'system', show: (r) => r.system },
  { header: 'summarizer', show: (r) => r.summarizer },
  { header: 'pattern', show: (r) => r.pattern },
  num('OP_GM', (n) => n.opGm),
  num('BSP P', (n) => n.bsp?.precision),
  num('BSP R', (n) => n.bsp?.recall),
  num('BSP F1', (n) => n.bsp?.f1),
  ciColumn('BSP F1 95% CI', 'bspF1'),
  num('paragraph ratio', (n) => n.paragraphRatio),
  num('KBSAF P', (n) => n.kbsaf?.precision),
  num('KBSAF R', (n) => n.kbsaf?.recall),
  num('KBSAF F1', (n) => n.kbsaf?.f1),
  ciColumn('KBSAF F1 95% CI', 'kbsafF1'),
  num('CAO R', (n) => n.caoRecall),
  ciColumn('CAO R 95% CI', 'caoRecall'),
  ...OPINION_ERROR_TYPES.map((t) => num(`${t} %`, (n) => n.errorTypes[t])),
  num('gold win %', (n) => n.feedbackGoldWinRate),
  {
    header: 'samples',
    show: (r) => String(r.samples),
    csv: [{ header: 'samples', value: (r) => r.samples }],
  },
  failedColumn(),
  { header: 'judge', show: (r) => r.judge },
  { header: 'status', show: (r) => r.status },
];

function notes(rows: readonly KgdsRow[], metric: string): string[] {
  const zero = rows.flatMap((r) =>
    r.zeroDivision.map((z) => `${r.system}/${z.document} (${z.ratios.join(', ')})`),
  );
  return [
    `${metric}: percent, macro-averaged over samples; OP_GM = sqrt(background F1 x CAO recall) from those means (BSP for EBS-AOS, KBSAF for ABS-AOS); error types are shares of the classified missed opinions; gold win % = feedback judgments preferring the gold EBS; CIs from a bootstrap of the sample mean. Verified by: ${[...new Set(rows.map((r) => r.judge))].join(', ')}.`,
    zero.length
      ? `Samples with a 0/0 ratio, counted as 0: ${zero.join('; ')}.`
      : 'No sample had a 0/0 ratio.',
  ];
}

export interface KgdsReport {
  rows: KgdsRow[];
}

export function kgdsBlocks(report: KgdsReport): ReportBlock[] {
  const metrics = [...new Set(report.rows.map((r) => r.metric))];
  return metrics.map((metric) => {
    const rows = report.rows.filter((r) => r.metric === metric);
    return {
      key: metric,
      heading: `KGDS (${metric})`,
      table: reportTable(COLUMNS, rankKgdsRows(rows)),
      notes: notes(rows, metric),
    };
  });
}

export async function loadKgdsReport(db: DataSource, run: RunEntity): Promise<KgdsReport> {
  const rows = (await db.query('SELECT result FROM tasks WHERE id = $1', [scoreTaskId(run.id)])) as {
    result: { kgds?: KgdsRow[] } | null;
  }[];
  return { rows: rows[0]?.result?.kgds ?? [] };
}

export const kgdsReport: ReportSection<KgdsReport> = {
  load: loadKgdsReport,
  hasResults: (r) => r.rows.length > 0,
  blocks: kgdsBlocks,
  json: (r) => ({ kgds: rankKgdsRows(r.rows) }),
  trace: kgdsTrace,
};
