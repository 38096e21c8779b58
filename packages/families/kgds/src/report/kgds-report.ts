import type { RunEntity } from '@precis/db';
import {
  type Board,
  boardBlock,
  ciColumn,
  failedColumn,
  groupRows,
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
import { OPINION_ERROR_TYPES } from '../metrics/kgds.js';
import type { KgdsNumbers, KgdsRow } from '../score/kgds-row.js';
import { kgdsTrace } from './kgds-trace.js';

type Ranked = RankedRow<KgdsRow>;

// The per-summary values the ranks are tested on: each summary's own OP_GM (percent).
export const KGDS_RANKING_METRIC = 'kgds:op-gm';

const groupKey = (r: KgdsRow) => `${r.metric} ${r.pattern}`;

// Rows by (metric, pattern), in the order they first appear.
const groups = (rows: readonly KgdsRow[]): KgdsRow[][] => groupRows(rows, groupKey);

const num = (header: string, value: (n: KgdsNumbers) => number | null | undefined) =>
  numberColumn<Ranked>(header, 1, (r) => (r.kgds ? value(r.kgds) : null));

const HEAD: ReportColumn<Ranked>[] = [
  { header: 'summarizer', show: (r) => r.summarizer },
  num('OP_GM', (n) => n.opGm),
];

const TAIL: ReportColumn<Ranked>[] = [
  num('CAO R', (n) => n.caoRecall),
  ciColumn<Ranked>('CAO R 95% CI', 'caoRecall'),
  ...OPINION_ERROR_TYPES.map((t) => num(`${t} %`, (n) => n.errorTypes[t])),
  {
    header: 'samples',
    show: (r) => String(r.samples),
    csv: [{ header: 'samples', value: (r) => r.samples }],
  },
  failedColumn(),
  { header: 'judge', show: (r) => r.judge },
  { header: 'status', show: (r) => r.status },
];

// Each pattern's table shows its own background metric.
const COLUMNS: Record<KgdsRow['pattern'], ReportColumn<Ranked>[]> = {
  'ebs-aos': [
    ...HEAD,
    num('BSP P', (n) => n.bsp?.precision),
    num('BSP R', (n) => n.bsp?.recall),
    num('BSP F1', (n) => n.bsp?.f1),
    ciColumn<Ranked>('BSP F1 95% CI', 'bspF1'),
    num('paragraph ratio', (n) => n.paragraphRatio),
    num('gold win %', (n) => n.feedbackGoldWinRate),
    ...TAIL,
  ],
  'abs-aos': [
    ...HEAD,
    num('KBSAF P', (n) => n.kbsaf?.precision),
    num('KBSAF R', (n) => n.kbsaf?.recall),
    num('KBSAF F1', (n) => n.kbsaf?.f1),
    ciColumn<Ranked>('KBSAF F1 95% CI', 'kbsafF1'),
    ...TAIL,
  ],
};

function notes(rows: readonly KgdsRow[], metric: string, pattern: KgdsRow['pattern']): string[] {
  // Grouped by system and ratio: "lead-3 bsp.f1 in 2 samples (documents 0, 7)".
  const zero = new Map<string, string[]>();
  for (const r of rows)
    for (const z of r.zeroDivision)
      for (const ratio of z.ratios)
        zero.set(`${r.system} ${ratio}`, [...(zero.get(`${r.system} ${ratio}`) ?? []), z.document]);
  const background = pattern === 'ebs-aos' ? 'BSP F1' : 'KBSAF F1';
  return [
    `${metric}, ${pattern.toUpperCase()}: percent, macro-averaged over samples; OP_GM = sqrt(${background} x CAO recall) from those means (the ranks test each sample's own OP_GM); error types are shares of the classified missed opinions;${pattern === 'ebs-aos' ? ' gold win % = feedback judgments preferring the gold EBS (a model judge only; n/a when none differed);' : ''} CIs from a bootstrap of the sample mean. Verified by: ${[...new Set(rows.map((r) => r.judge))].join(', ')}.`,
    zero.size
      ? `Samples with a 0/0 ratio, counted as 0: ${[...zero].map(([what, docs]) => `${what} in ${docs.length} (documents ${docs.join(', ')})`).join('; ')}.`
      : 'No sample had a 0/0 ratio.',
  ];
}

export interface KgdsReport {
  rows: KgdsRow[];
}

// The board of one (metric, pattern): the OP_GM of EBS-AOS and of ABS-AOS are not comparable.
function kgdsBoard(rows: KgdsRow[], several: boolean): Board<KgdsRow> {
  const { metric, pattern } = rows[0]!;
  const judge = several ? `, ${judgedBy(rows.map((r) => r.judge))}` : '';
  return {
    key: `${metric}.${pattern}`,
    family: 'kgds',
    metric: 'kgds',
    label: metric,
    title: `KGDS ${pattern.toUpperCase()}${judge}`,
    ranking: { metric: KGDS_RANKING_METRIC, column: 'OP_GM' },
    rows,
    score: (r) => (r.kgds && isComplete(r.work) ? r.kgds.opGm : null),
    fields: (r) => ({ ...r }),
    columns: COLUMNS[pattern],
    notes: notes(rows, metric, pattern),
    details: { pattern },
  };
}

export const kgdsBoards = (report: KgdsReport): Board<KgdsRow>[] => {
  const all = groups(report.rows);
  const metrics = new Set(report.rows.map((r) => r.metric));
  return all.map((rows) => kgdsBoard(rows, metrics.size > 1));
};

export const kgdsBlocks = (_: KgdsReport, ranked: readonly RankedBoard[]): ReportBlock[] =>
  ranked.map((b) => boardBlock(b));

export async function loadKgdsReport(db: DataSource, run: RunEntity): Promise<KgdsReport> {
  const result = await taskResult<{ kgds?: KgdsRow[] }>(db, scoreTaskId(run.id));
  return { rows: result?.kgds ?? [] };
}

// One figure per (metric, pattern): the background F1 (BSP for EBS-AOS, KBSAF for ABS-AOS) with
// its CI, and the classified missed opinions by error type (counts from the stored shares).
export function kgdsFigures(report: KgdsReport): ReportFigure[] {
  return groups(report.rows).map((rows) => {
    const { metric, pattern } = rows[0]!;
    const [label, key] = pattern === 'ebs-aos' ? ['BSP F1', 'bspF1'] : ['KBSAF F1', 'kbsafF1'];
    const f1 = (n: KgdsNumbers) => (pattern === 'ebs-aos' ? n.bsp : n.kbsaf)?.f1 ?? null;
    const counts = (r: KgdsRow) =>
      OPINION_ERROR_TYPES.map((t) => Math.round((r.errorsClassified * (r.kgds?.errorTypes[t] ?? 0)) / 100));
    return {
      key: `${metric}.${pattern}`,
      title: `KGDS ${pattern.toUpperCase()}: ${label}, ${judgedBy(rows.map((r) => r.judge))}`,
      metric: `${label} (%)`,
      higherIsBetter: true,
      points: rows.map((r) => ({
        system: r.system,
        score: r.kgds ? f1(r.kgds) : null,
        ci95: r.ci95[key] ?? null,
        costUsd: null,
      })),
      errors: {
        types: [...OPINION_ERROR_TYPES],
        rows: rows.map((r) => ({ system: r.system, counts: counts(r) })),
      },
    };
  });
}

export const kgdsReport: ReportSection<KgdsReport> = {
  load: loadKgdsReport,
  hasResults: (r) => r.rows.length > 0,
  boards: kgdsBoards,
  blocks: kgdsBlocks,
  figures: kgdsFigures,
  trace: kgdsTrace,
};
