import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import { formatTextTable } from '@precis/text';
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

// A judge's mean, or 'failed (N)' where N judgments of the system's summaries failed.
function judgeCell(e: LeaderboardEntry, label: string, c: OpinionDimensionId | 'overall'): string {
  const failed = e.judgeFailed[label] ?? {};
  const n = c === 'overall' ? Object.values(failed).reduce((a, b) => a + b, 0) : (failed[c] ?? 0);
  return n ? `failed (${n})` : fmt(e.judges[label]?.[c]);
}

// Headers and rows shared by every tabular format: per column group (each dimension, then
// overall) the human mean and each judge's mean side by side; a last row gives each judge's
// summary-level Spearman with the humans under its columns.
export function leaderboardGrid(board: HumanLeaderboard): { headers: string[]; rows: string[][] } {
  const cols = [...OPINION_DIMENSION_IDS, 'overall'] as const;
  const labels = board.judges.map((j) => j.label);
  const headers = ['rank', 'system'];
  for (const c of cols) {
    headers.push(`${SHORT[c]} human`);
    for (const l of labels) headers.push(`${SHORT[c]} ${l}`);
  }
  const rows = board.entries.map((e) => {
    const row = [String(e.rank), e.system];
    for (const c of cols) {
      row.push(fmt(e.human[c]));
      for (const l of labels) row.push(judgeCell(e, l, c));
    }
    return row;
  });
  if (labels.length) {
    const row = ['', 'spearman vs human'];
    for (const c of cols) {
      row.push('');
      for (const j of board.judges) {
        if (c === 'overall') row.push('');
        else row.push(fmt(j.correlation[c].spearman, 3));
      }
    }
    rows.push(row);
  }
  return { headers, rows };
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function notes(board: HumanLeaderboard): string[] {
  return [
    `dataset: ${board.dataset}`,
    board.producedBy,
    ...board.judges.map((j) => `${j.label}: ${j.producedBy}`),
    'dimensions: FL fluency, CO coherence, RE relevance, FA faithfulness, AC aspect coverage, SC sentiment consistency, SP specificity',
  ];
}

export function renderLeaderboard(board: HumanLeaderboard, format: LeaderboardFormat): string {
  if (format === 'json') return JSON.stringify(board, null, 2);
  const { headers, rows } = leaderboardGrid(board);
  switch (format) {
    case 'text':
      return [formatTextTable(headers, rows), '', ...notes(board)].join('\n');
    case 'md':
      return [
        `| ${headers.join(' | ')} |`,
        `|${headers.map(() => '---').join('|')}|`,
        ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
        '',
        ...notes(board).map((n) => `- ${n}`),
      ].join('\n');
    case 'csv':
      return [headers, ...rows].map((r) => r.map(csvCell).join(',')).join('\n');
    case 'html':
      return [
        '<!doctype html>',
        `<html><head><meta charset="utf-8"><title>${html(board.dataset)} leaderboard</title></head><body>`,
        `<h1>${html(board.dataset)}: systems by human rating</h1>`,
        '<table border="1" cellspacing="0" cellpadding="4">',
        `<thead><tr>${headers.map((h) => `<th>${html(h)}</th>`).join('')}</tr></thead>`,
        `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${html(c)}</td>`).join('')}</tr>`).join('')}</tbody>`,
        '</table>',
        `<ul>${notes(board)
          .map((n) => `<li>${html(n)}</li>`)
          .join('')}</ul>`,
        '</body></html>',
      ].join('\n');
  }
}
