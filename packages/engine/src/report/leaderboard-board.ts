import { MIN_DOCUMENTS, rankByEvidence } from '../leaderboard/evidence-rank.js';
import { describeWork, type RowWork } from '../scoring/row-status.js';
import { type DocumentValues, noUsage, type SystemUsage } from './board-inputs.js';
import {
  type ReportBlock,
  type ReportChart,
  type ReportColumn,
  rankColumn,
  reportTable,
} from './report-blocks.js';

// A leaderboard row: a system and what its work came to.
export interface BoardRow {
  system: string;
  work: RowWork;
}

// A row with its place: rank null for a row left out (its work failed), shown as rankLabel
// ('1', '=2' for a rank several rows share, '–').
export type Ranked<R> = R & { rank: number | null; rankLabel: string };

// One leaderboard a family's report section declares; the engine ranks it by evidence (the same
// rule in every format), renders it and gives it to the JSON report as a section.
export interface Board<R extends BoardRow = BoardRow> {
  // Unique within a run: names the table in CSV and the section the page's block belongs to.
  key: string;
  // The family and the spec's metric name; label is the internal id (<metric>.<index>).
  family: string;
  metric: string;
  label: string;
  // For people, from the family and metric names, e.g. 'Score (what it measures)'.
  title: string;
  // The metric_values key of the per-document values the ranks are tested on, and the column
  // that shows its mean (always kept in a narrow terminal).
  ranking: { metric: string; column: string; higherIsBetter?: boolean };
  rows: readonly R[];
  // The mean the board shows of the ranking metric; null leaves the row unranked.
  score(row: R): number | null;
  ci95?(row: R): [number, number] | null;
  // The family's own fields of a row in the JSON report (after the engine's).
  fields(row: R): Record<string, unknown>;
  // The table's columns after rank and system.
  columns: readonly ReportColumn<Ranked<R>>[];
  notes: readonly string[];
  // The section's own fields in the JSON report (judge, templates, correlations...).
  details?: Record<string, unknown>;
  // A bar chart of the ranked rows (HTML only).
  chart?(rows: readonly Ranked<R>[]): ReportChart;
}

export interface BoardRankOptions {
  alpha: number;
  resamples: number;
  seed: number | string;
}

export interface RankedBoard<R extends BoardRow = BoardRow> {
  board: Board<R>;
  // In the order shown: by mean, best first; rows without a rank last.
  rows: Ranked<R>[];
  alpha: number;
  resamples: number;
  // The most documents two ranked systems share.
  documents: number;
  // The board's notes, then how it is ranked, then why ranks are shared or not transitive.
  notes: string[];
  usage: ReadonlyMap<string, SystemUsage>;
}

// The one rank rule of every single-run leaderboard, on the per-document values of its ranking
// metric (see rankByEvidence).
export function rankBoard<R extends BoardRow>(
  board: Board<R>,
  values: DocumentValues,
  opts: BoardRankOptions & { usage?: ReadonlyMap<string, SystemUsage> },
): RankedBoard<R> {
  const perSystem = values.get(board.ranking.metric);
  const ranking = rankByEvidence(
    board.rows.map((r) => ({
      system: r.system,
      score: board.score(r),
      values: perSystem?.get(r.system) ?? new Map<string, number>(),
    })),
    { ...opts, higherIsBetter: board.ranking.higherIsBetter !== false },
  );
  const rows = ranking.order.map((i) => ({
    ...board.rows[i]!,
    rank: ranking.ranks[i]!,
    rankLabel: ranking.labels[i]!,
  }));
  const direction = board.ranking.higherIsBetter === false ? ', lower is better' : '';
  const rule = `Ranked by ${board.ranking.column}${direction}: a rank is 1 + the systems significantly better on it (paired bootstrap over the documents both scored, ${opts.resamples} resamples, Holm-corrected, alpha ${opts.alpha}; none tested on fewer than ${MIN_DOCUMENTS} documents); "=" marks a rank several systems share; a row whose work failed has none.`;
  return {
    board,
    rows,
    alpha: opts.alpha,
    resamples: opts.resamples,
    documents: ranking.documents,
    notes: [...board.notes, rule, ...ranking.notes],
    usage: opts.usage ?? new Map(),
  };
}

const systemColumn: ReportColumn<BoardRow> = { header: 'system', show: (r) => r.system };

// The board's table: rank, system, then the family's columns, its ranking column pinned.
export function boardBlock<R extends BoardRow>(ranked: RankedBoard<R>): ReportBlock {
  const { board } = ranked;
  if (!board.columns.some((c) => c.header === board.ranking.column))
    throw new Error(`leaderboard ${board.key}: no column "${board.ranking.column}" shows its ranking metric`);
  const columns: ReportColumn<Ranked<R>>[] = [
    rankColumn<Ranked<R>>(),
    systemColumn,
    ...board.columns.map((c) => (c.header === board.ranking.column ? { ...c, pin: true } : c)),
  ];
  return {
    key: board.key,
    heading: `${board.title}, ranked by ${board.ranking.column}`,
    label: board.label,
    table: reportTable(columns, ranked.rows),
    ...(board.chart ? { chart: board.chart(ranked.rows) } : {}),
    notes: ranked.notes,
  };
}

// A leaderboard as the JSON report, REST and the page give it: one shape for every family.
export interface SectionJson {
  key: string;
  family: string;
  metric: string;
  label: string;
  title: string;
  rankingMetric: string;
  rankingColumn: string;
  higherIsBetter: boolean;
  alpha: number;
  resamples: number;
  documents: number;
  notes: string[];
  details: Record<string, unknown>;
  rows: SectionRowJson[];
}

export interface SectionRowJson {
  system: string;
  rank: number | null;
  rankLabel: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  work: RowWork;
  status: string;
  usage: SystemUsage;
  [field: string]: unknown;
}

// The fields of a section row the engine sets; the rest are the family's own (fieldsJson in gRPC).
export const SECTION_ENGINE_FIELDS: ReadonlySet<string> = new Set([
  'system',
  'rank',
  'rankLabel',
  'score',
  'ciLow',
  'ciHigh',
  'work',
  'status',
  'usage',
]);

export function sectionJson<R extends BoardRow>(ranked: RankedBoard<R>): SectionJson {
  const { board } = ranked;
  return {
    key: board.key,
    family: board.family,
    metric: board.metric,
    label: board.label,
    title: board.title,
    rankingMetric: board.ranking.metric,
    rankingColumn: board.ranking.column,
    higherIsBetter: board.ranking.higherIsBetter !== false,
    alpha: ranked.alpha,
    resamples: ranked.resamples,
    documents: ranked.documents,
    notes: ranked.notes,
    details: board.details ?? {},
    rows: ranked.rows.map((r) => {
      const ci = board.ci95?.(r) ?? null;
      const own = Object.entries(board.fields(r)).filter(([k]) => !SECTION_ENGINE_FIELDS.has(k));
      return {
        system: r.system,
        rank: r.rank,
        rankLabel: r.rankLabel,
        score: board.score(r),
        ciLow: ci?.[0] ?? null,
        ciHigh: ci?.[1] ?? null,
        work: r.work,
        status: describeWork(r.work),
        usage: ranked.usage.get(r.system) ?? noUsage(),
        ...Object.fromEntries(own),
      };
    }),
  };
}
