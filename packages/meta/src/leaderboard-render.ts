import { type ReportBlock, type ReportColumn, renderBlocks, reportTable } from '@precis/engine';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import type { HumanLeaderboard, LeaderboardEntry } from './leaderboard.js';

export type LeaderboardFormat = 'text' | 'md' | 'csv' | 'json' | 'html';

const SHORT: Record<OpinionDimensionId | 'overall', string> = {
  fluency: 'FL',
  coherence: 'CO',
  relevance: 'RE',
  faithfulness: 'FA',
  aspect_coverage: 'AC',
  sentiment_consistency: 'SC',
  specificity: 'SP',
  overall: 'ALL',
};

const fmt = (v: number | null | undefined, digits = 2): string =>
  v === null || v === undefined ? '-' : v.toFixed(digits);

const GROUPS = [...OPINION_DIMENSION_IDS, 'overall'] as const;
type Group = (typeof GROUPS)[number];

// Judgments of the system's summaries the judge failed, for one dimension or all of them.
function failedCount(e: LeaderboardEntry, label: string, c: Group): number {
  const failed = e.judgeFailed[label] ?? {};
  return c === 'overall' ? Object.values(failed).reduce((a, b) => a + b, 0) : (failed[c] ?? 0);
}

// A judge's mean, or 'failed (N)' where N judgments of the system's summaries failed.
function judgeCell(e: LeaderboardEntry, label: string, c: Group): string {
  const n = failedCount(e, label, c);
  return n ? `failed (${n})` : fmt(e.judges[label]?.[c]);
}

type Column = ReportColumn<LeaderboardEntry>;

// Per column group (each dimension, then overall) the human mean and each judge's mean side by
// side; in CSV a judge's failed judgments get a count column of their own.
function columns(board: HumanLeaderboard): Column[] {
  const cols: Column[] = [
    { header: 'rank', show: (e) => String(e.rank), csv: [{ header: 'rank', value: (e) => e.rank }] },
    { header: 'system', show: (e) => e.system },
  ];
  for (const c of GROUPS) {
    const human = `${SHORT[c]} human`;
    cols.push({
      header: human,
      show: (e) => fmt(e.human[c]),
      csv: [{ header: human, value: (e) => e.human[c] ?? null }],
    });
    for (const { label } of board.judges) {
      const header = `${SHORT[c]} ${label}`;
      cols.push({
        header,
        show: (e) => judgeCell(e, label, c),
        csv: [
          { header, value: (e) => (failedCount(e, label, c) ? null : (e.judges[label]?.[c] ?? null)) },
          { header: `${header} failed`, value: (e) => failedCount(e, label, c) },
        ],
      });
    }
  }
  return cols;
}

type CorrelationRow = HumanLeaderboard['judges'][number];

// Each judge's summary-level Spearman with the humans, per dimension.
function correlationColumns(): ReportColumn<CorrelationRow>[] {
  return [
    { header: 'judge', show: (j) => j.label },
    ...OPINION_DIMENSION_IDS.map((d) => ({
      header: SHORT[d],
      show: (j: CorrelationRow) => fmt(j.correlation[d].spearman, 3),
      csv: [{ header: SHORT[d], value: (j: CorrelationRow) => j.correlation[d].spearman }],
    })),
  ];
}

function notes(board: HumanLeaderboard): string[] {
  return [
    `dataset: ${board.dataset}`,
    board.producedBy,
    ...board.judges.map((j) => `${j.label}: ${j.producedBy}`),
    'dimensions: FL fluency, CO coherence, RE relevance, FA faithfulness, AC aspect coverage, SC sentiment consistency, SP specificity',
  ];
}

export function leaderboardBlocks(board: HumanLeaderboard): ReportBlock[] {
  const blocks: ReportBlock[] = [
    { key: 'human-leaderboard', table: reportTable(columns(board), board.entries) },
  ];
  if (board.judges.length)
    blocks.push({
      key: 'spearman-vs-human',
      heading: 'Spearman with the human ratings (summary level)',
      table: reportTable(correlationColumns(), board.judges),
    });
  blocks.push({ key: 'notes', list: notes(board) });
  return blocks;
}

export const leaderboardTitle = (board: HumanLeaderboard): string =>
  `${board.dataset}: systems by human rating`;

// The leaderboard in every format but HTML, rendered by the engine like a run's report (the
// HTML page of leaderboardBlocks is rendered above, where the web page may be imported).
export function renderLeaderboard(
  board: HumanLeaderboard,
  format: Exclude<LeaderboardFormat, 'html'>,
): string {
  if (format === 'json') return `${JSON.stringify(board, null, 2)}\n`;
  return renderBlocks(leaderboardTitle(board), leaderboardBlocks(board), format);
}
