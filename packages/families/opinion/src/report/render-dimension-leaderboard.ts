import type { RunEntity } from '@precis/db';
import {
  csvCell,
  describeWork,
  escapeHtml,
  failedCell,
  type ReportFormat,
  type ReportSection,
  type RunHeader,
  reportTitle,
  runHeader,
  scoreTaskId,
} from '@precis/engine';
import { formatTextTable } from '@precis/text';
import type { DimensionLeaderboard, DimensionSystemRow } from '../dimensions/dimension-scores.js';

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

const num = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined ? 'n/a' : x.toFixed(digits);

// The mean over dimensions; null unless every dimension has a mean (a complete row).
function overall(r: DimensionSystemRow): number | null {
  const xs = Object.values(r.dimensions).map((c) => c.mean);
  if (xs.length === 0 || xs.some((m) => m === null)) return null;
  return (xs as number[]).reduce((a, b) => a + b, 0) / xs.length;
}

// Complete rows best first (ties by system name); rows without a judge mean unranked, last.
export function rankDimensionRows(
  rows: readonly DimensionSystemRow[],
): (DimensionSystemRow & { rank: number | null })[] {
  const ranked = rows
    .filter((r) => overall(r) !== null)
    .sort((a, b) => overall(b)! - overall(a)! || a.system.localeCompare(b.system))
    .map((r, i) => ({ rank: i + 1, ...r }));
  const rest = rows
    .filter((r) => overall(r) === null)
    .sort((a, b) => a.system.localeCompare(b.system))
    .map((r) => ({ rank: null, ...r }));
  return [...ranked, ...rest];
}

// Boards as the JSON report gives them: rows in rank order, each with its rank.
export function rankedBoards(boards: readonly DimensionLeaderboard[]) {
  return boards.map((b) => ({ ...b, rows: rankDimensionRows(b.rows) }));
}

function grid(board: DimensionLeaderboard): { headers: string[]; rows: string[][] } {
  const anyHuman = board.rows.some((r) => Object.values(r.dimensions).some((c) => c.human !== null));
  const headers = ['rank', 'system', 'summarizer', 'judge mean'];
  for (const d of board.dimensions) headers.push(d, `${d} 95% CI`, ...(anyHuman ? [`${d} human`] : []));
  headers.push('failed', 'status');
  const rows = rankDimensionRows(board.rows).map((r) => {
    const cells = [r.rank === null ? '–' : String(r.rank), r.system, r.summarizer, num(overall(r))];
    for (const d of board.dimensions) {
      const c = r.dimensions[d];
      cells.push(num(c?.mean), c?.ci95 ? `${num(c.ci95[0])}–${num(c.ci95[1])}` : 'n/a');
      if (anyHuman) cells.push(num(c?.human));
    }
    cells.push(failedCell(r.work), r.status);
    return cells;
  });
  if (board.humanCorrelation) {
    const cells = ['', 'Spearman / Kendall with humans (summary level)', '', ''];
    for (const d of board.dimensions) {
      const c = board.humanCorrelation[d];
      cells.push(c ? `${num(c.spearman)} / ${num(c.kendall)}` : 'n/a', c ? `${c.products} products` : '');
      if (anyHuman) cells.push('');
    }
    cells.push('', '');
    rows.push(cells);
  }
  return { headers, rows };
}

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

// Per-dimension judge leaderboards of a run; each table names its judge and template version.
export function renderDimensionReport(report: DimensionReport, format: ReportFormat): string {
  const title = reportTitle(report.run);
  if (format === 'json')
    return `${JSON.stringify({ run: report.run, dimensions: rankedBoards(report.boards) }, null, 2)}\n`;
  const parts = report.boards.map((b) => ({ ...grid(b), caption: caption(b), metric: b.metric }));
  switch (format) {
    case 'csv':
      return `${parts
        .flatMap((p) => [['metric', ...p.headers], ...p.rows.map((r) => [p.metric, ...r])])
        .map((r) => r.map(csvCell).join(','))
        .join('\n')}\n`;
    case 'md':
      return [
        `# ${title}`,
        ...parts.flatMap((p) => [
          '',
          `## ${p.metric}`,
          '',
          `| ${p.headers.join(' | ')} |`,
          `|${p.headers.map(() => '---').join('|')}|`,
          ...p.rows.map((r) => `| ${r.join(' | ')} |`),
          '',
          p.caption,
        ]),
        '',
      ].join('\n');
    case 'html':
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}th{background:#f4f4f4}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
${parts
  .map(
    (p) => `<h2>${escapeHtml(p.metric)}</h2>
<table><thead><tr>${p.headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${p.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}</tbody></table>
<p>${escapeHtml(p.caption)}</p>`,
  )
  .join('\n')}
</body></html>
`;
    case 'text':
      return [
        title,
        ...parts.flatMap((p) => [
          '',
          p.metric,
          formatTextTable(p.headers, p.rows, { ruler: true, trimEnd: false }),
          p.caption,
        ]),
        '',
      ].join('\n');
  }
}

export const dimensionReport: ReportSection<DimensionReport> = {
  load: (db, run) => loadDimensionReport(db, run),
  hasResults: (r) => r.boards.length > 0,
  render: (r, format) => renderDimensionReport(r, format),
  json: (r) => ({ dimensions: rankedBoards(r.boards) }),
};
