import type { RunEntity } from '@precis/db';
import { formatTextTable } from '@precis/text';
import type { LeaderboardRow } from '../scoring/leaderboard-row.js';

export type ReportFormat = 'md' | 'csv' | 'json' | 'html' | 'text';

// What every report says about its run.
export function runHeader(run: RunEntity): RunReport['run'] {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
    error: run.error,
  };
}

export interface RunReport {
  run: {
    id: string;
    name: string;
    status: string;
    createdAt: string;
    finishedAt: string | null;
    error: string | null;
  };
  leaderboard: LeaderboardRow[];
  bootstrapResamples: number;
}

const pct = (x: number) => `${x.toFixed(1)}%`;
const score = (x: number | null) => (x === null ? 'n/a' : (100 * x).toFixed(1));
const usd = (x: number) => `$${x.toFixed(4)}`;

interface Column {
  header: string;
  value: (r: LeaderboardRow) => string;
}

const COLUMNS: Column[] = [
  { header: 'rank', value: () => '' },
  { header: 'system', value: (r) => r.system },
  { header: 'strategy', value: (r) => r.strategy },
  { header: 'summarizer', value: (r) => r.summarizer },
  { header: 'BooookScore', value: (r) => score(r.score) },
  { header: '95% CI', value: (r) => (r.ci95 ? `${score(r.ci95[0])}–${score(r.ci95[1])}` : 'n/a') },
  {
    header: 'bootstrap std',
    value: (r) => (r.bootstrapStd === null ? 'n/a' : (100 * r.bootstrapStd).toFixed(2)),
  },
  { header: 'summaries', value: (r) => `${r.summaries}${r.incomplete ? ` (+${r.incomplete} failed)` : ''}` },
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
];

// Best first; systems without a score last.
export function rankRows(rows: LeaderboardRow[]): LeaderboardRow[] {
  return [...rows].sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.system.localeCompare(b.system));
}

function table(rows: LeaderboardRow[]): string[][] {
  return rankRows(rows).map((r, i) => COLUMNS.map((c, k) => (k === 0 ? String(i + 1) : c.value(r))));
}

function errorTypeLines(rows: LeaderboardRow[]): string[] {
  return rankRows(rows).map((r) => {
    const parts = Object.entries(r.errorTypes)
      .filter(([, share]) => share > 0)
      .map(([t, share]) => `${t} ${pct(100 * share)}`);
    return `${r.system}: ${parts.length ? parts.join(', ') : 'no confusions found'} (per sentence, ${r.sentences} sentences)`;
  });
}

function csvCell(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderReport(report: RunReport, format: ReportFormat): string {
  const rows = table(report.leaderboard);
  const headers = COLUMNS.map((c) => c.header);
  const judges = [
    ...new Set(report.leaderboard.map((r) => `${r.judge}${r.judgeTemplate ? ` [${r.judgeTemplate}]` : ''}`)),
  ];
  const title = `Run ${report.run.name} (${report.run.id}) — ${report.run.status}`;
  const note = `BooookScore = share of summary sentences without a confusion, x100; CI and std from a ${report.bootstrapResamples}-resample bootstrap of the system mean. Judge: ${judges.join('; ')}.`;
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
        ...errorTypeLines(report.leaderboard).map((l) => `- ${l}`),
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
  .map(
    (r) =>
      `<div>${escapeHtml(r.system)} <span class="bar" style="width:${Math.round(300 * (r.score ?? 0))}px"></span> ${score(r.score)}</div>`,
  )
  .join('\n')}
<p>${escapeHtml(note)}</p>
<h2>Error types</h2><ul>${errorTypeLines(report.leaderboard)
        .map((l) => `<li>${escapeHtml(l)}</li>`)
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
        ...errorTypeLines(report.leaderboard),
        '',
      ].join('\n');
    }
  }
}
