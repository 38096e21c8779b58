import {
  csvCell,
  escapeHtml,
  failedCell,
  isComplete,
  type ReportFormat,
  type RunHeader,
  reportTitle,
} from '@precis/engine';
import { formatTextTable } from '@precis/text';
import type { LeaderboardRow } from '../booookscore/leaderboard-row.js';

export interface RunReport {
  run: RunHeader;

  leaderboard: LeaderboardRow[];
  bootstrapResamples: number;
}

const pct = (x: number) => `${x.toFixed(1)}%`;
const score = (x: number | null) => (x === null ? 'n/a' : (100 * x).toFixed(1));
const usd = (x: number) => `$${x.toFixed(4)}`;

// A leaderboard row with its place: null for a row left out of the ranking (its work is not
// complete, so it has no score).
export type RankedRow = LeaderboardRow & { rank: number | null };

interface Column {
  header: string;
  value: (r: RankedRow) => string;
}

const COLUMNS: Column[] = [
  { header: 'rank', value: (r) => (r.rank === null ? '–' : String(r.rank)) },
  { header: 'system', value: (r) => r.system },
  { header: 'strategy', value: (r) => r.strategy },
  { header: 'summarizer', value: (r) => r.summarizer },
  { header: 'BooookScore', value: (r) => score(r.score) },
  { header: '95% CI', value: (r) => (r.ci95 ? `${score(r.ci95[0])}–${score(r.ci95[1])}` : 'n/a') },
  {
    header: 'bootstrap std',
    value: (r) => (r.bootstrapStd === null ? 'n/a' : (100 * r.bootstrapStd).toFixed(2)),
  },
  { header: 'summaries', value: (r) => String(r.summaries) },
  { header: 'failed', value: (r) => failedCell(r.work) },
  { header: 'length (tokens)', value: (r) => r.lengthTokens.toFixed(0) },
  { header: 'novel 3-grams', value: (r) => pct(r.novelTrigramsPct) },
  { header: 'repeated 3-grams', value: (r) => pct(r.repeatedTrigramsPct) },
  {
    header: 'summarizer tokens',
    value: (r) => `${r.summarizerUsage.tokensIn + r.summarizerUsage.tokensOut}`,
  },
  { header: 'summarizer cost', value: (r) => usd(r.summarizerUsage.costUsd) },
  { header: 'judge tokens', value: (r) => `${r.judgeUsage.tokensIn + r.judgeUsage.tokensOut}` },
  { header: 'judge cost', value: (r) => usd(r.judgeUsage.costUsd) },
  { header: 'judge', value: (r) => r.judge },
  { header: 'status', value: (r) => r.status },
];

// Complete rows best first (ties by system name); incomplete rows have no score and no rank and
// come last, by system name.
export function rankRows(rows: readonly LeaderboardRow[]): RankedRow[] {
  const scored = (r: LeaderboardRow) => r.score !== null && isComplete(r.work);
  const ranked = rows
    .filter(scored)
    .sort((a, b) => b.score! - a.score! || a.system.localeCompare(b.system))
    .map((r, i) => ({ rank: i + 1, ...r }));
  const rest = rows
    .filter((r) => !scored(r))
    .sort((a, b) => a.system.localeCompare(b.system))
    .map((r) => ({ rank: null, ...r }));
  return [...ranked, ...rest];
}

function table(rows: readonly LeaderboardRow[]): string[][] {
  return rankRows(rows).map((r) => COLUMNS.map((c) => c.value(r)));
}

function errorTypeLine(r: LeaderboardRow): string {
  if (r.sentences === 0) return `${r.system}: no sentence judged (${r.status})`;
  const parts = Object.entries(r.errorTypes)
    .filter(([, share]) => share > 0)
    .map(([t, share]) => `${t} ${pct(100 * share)}`);
  const types = parts.length ? parts.join(', ') : 'no confusions found';
  return isComplete(r.work)
    ? `${r.system}: ${types} (per sentence, ${r.sentences} sentences)`
    : `${r.system}: ${types} in the ${r.sentences} judged sentences (${r.status})`;
}

// Each judge once; a judge none of whose judgments succeeded says so.
function judgesNote(rows: readonly LeaderboardRow[]): string {
  const judges = new Map<string, { expected: number; failed: number }>();
  for (const r of rows) {
    const name = `${r.judge}${r.judgeTemplate ? ` [${r.judgeTemplate}]` : ''}`;
    const j = judges.get(name) ?? { expected: 0, failed: 0 };
    j.expected += r.work.judgments.expected;
    j.failed += r.work.judgments.failed;
    judges.set(name, j);
  }
  const parts = [...judges].map(([name, j]) => {
    if (j.expected === 0) return `${name} (nothing to judge: every summary failed)`;
    if (j.failed === j.expected) return `${name} (every judgment failed: ${j.failed} of ${j.expected})`;
    return j.failed ? `${name} (${j.failed} of ${j.expected} judgments failed)` : name;
  });
  return parts.length ? parts.join('; ') : 'none';
}

export function renderReport(report: RunReport, format: ReportFormat): string {
  const rows = table(report.leaderboard);
  const headers = COLUMNS.map((c) => c.header);
  const title = reportTitle(report.run);
  const note = `BooookScore = share of summary sentences without a confusion, x100; CI and std from a ${report.bootstrapResamples}-resample bootstrap of the system mean; a row whose summaries or judgments partly failed gets no score and no rank. Judge: ${judgesNote(report.leaderboard)}.`;
  switch (format) {
    case 'json':
      return `${JSON.stringify({ run: report.run, leaderboard: rankRows(report.leaderboard) }, null, 2)}\n`;
    case 'csv':
      return `${[headers, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
    case 'md':
      return [
        `# ${title}`,
        '',
        `| ${headers.join(' | ')} |`,
        `|${headers.map(() => '---').join('|')}|`,
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        note,
        '',
        '## Error types',
        '',
        ...rankRows(report.leaderboard).map((r) => `- ${errorTypeLine(r)}`),
        '',
      ].join('\n');
    case 'html':
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}th{background:#f4f4f4}.bar{background:#4a7;height:.7rem;display:inline-block}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}</tbody></table>
<h2>BooookScore</h2>
${rankRows(report.leaderboard)
  .map((r) =>
    r.rank === null
      ? `<div>${escapeHtml(r.system)}: ${escapeHtml(r.status)}</div>`
      : `<div>${escapeHtml(r.system)} <span class="bar" style="width:${Math.round(300 * (r.score ?? 0))}px"></span> ${score(r.score)}</div>`,
  )
  .join('\n')}
<p>${escapeHtml(note)}</p>
<h2>Error types</h2><ul>${rankRows(report.leaderboard)
        .map((r) => `<li>${escapeHtml(errorTypeLine(r))}</li>`)
        .join('')}</ul>
</body></html>
`;
    case 'text': {
      return [
        title,
        '',
        formatTextTable(headers, rows, { ruler: true, trimEnd: false }),
        '',
        note,
        ...rankRows(report.leaderboard).map(errorTypeLine),
        '',
      ].join('\n');
    }
  }
}
