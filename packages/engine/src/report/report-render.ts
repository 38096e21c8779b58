import { formatTextTable } from '@precis/text';
import { fitTable, TERMINAL_WIDTH } from './fit-table.js';
import type { CsvValue, ReportBlock, ReportChart, ReportTable } from './report-blocks.js';
import { csvCell, escapeHtml, type ReportFormat } from './report-format.js';

// One style for every family: a title, then each block as its heading, table, notes and list.
export function renderBlocks(
  title: string,
  blocks: readonly ReportBlock[],
  format: Exclude<ReportFormat, 'json'>,
  opts: TextOptions = {},
): string {
  switch (format) {
    case 'md':
      return renderMarkdown(title, blocks);
    case 'text':
      return renderText(title, blocks, opts);
    case 'csv':
      return renderCsv(blocks);
    case 'html':
      return renderHtml(title, blocks);
  }
}

export function renderMarkdown(title: string, blocks: readonly ReportBlock[]): string {
  const lines = [`# ${title}`];
  for (const b of blocks) {
    lines.push('');
    if (b.heading) lines.push(`## ${b.heading}`, '');
    if (b.table) lines.push(...markdownTable(b.table));
    if (b.notes?.length) lines.push(...(b.table ? [''] : []), ...b.notes);
    if (b.list) lines.push(...b.list.map((item) => `- ${item}`));
  }
  return `${lines.join('\n')}\n`;
}

function markdownTable(t: ReportTable): string[] {
  const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(t.headers), `|${t.headers.map(() => '---').join('|')}|`, ...t.rows.map(row)];
}

export interface TextOptions {
  // Every column at full width instead of what fits the terminal.
  wide?: boolean;
  width?: number;
}

export function renderText(title: string, blocks: readonly ReportBlock[], opts: TextOptions = {}): string {
  const lines = [title];
  for (const b of blocks) {
    lines.push('');
    if (b.heading) lines.push(b.heading, '');
    const fitted = b.table && !opts.wide ? fitTable(b.table, opts.width) : null;
    const table = fitted?.table ?? b.table;
    if (table) lines.push(formatTextTable(table.headers, table.rows, { ruler: true, trimEnd: false }));
    const hidden = fitted?.hidden.length
      ? [
          `Not shown to fit ${opts.width ?? TERMINAL_WIDTH} columns: ${fitted.hidden.join(', ')} (--wide shows every column).`,
        ]
      : [];
    const notes = [...(b.notes ?? []), ...hidden];
    if (notes.length) lines.push(...(table ? [''] : []), ...notes);
    if (b.list) lines.push(...b.list);
  }
  return `${lines.join('\n')}\n`;
}

// Numbers as computed, not rounded for display; 12 significant digits drop float noise
// (100 * 0.78 is 78.00000000000001).
const csvValue = (v: CsvValue) =>
  v === null ? '' : typeof v === 'number' ? String(Number(v.toPrecision(12))) : csvCell(v);

// Each table under its own header row, tables apart by a blank line; the first column names the
// table.
export function renderCsv(blocks: readonly ReportBlock[]): string {
  const cell = csvValue;
  const tables = blocks
    .filter((b) => b.table)
    .map((b) =>
      [['table', ...b.table!.csvHeaders], ...b.table!.csvRows.map((r) => [b.key, ...r])]
        .map((r) => r.map(cell).join(','))
        .join('\n'),
    );
  return `${tables.join('\n\n')}\n`;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}th{background:#f4f4f4}.bar{background:#4a7;height:.7rem;display:inline-block}';

export function renderHtml(title: string, blocks: readonly ReportBlock[]): string {
  const body = [`<h1>${escapeHtml(title)}</h1>`];
  for (const b of blocks) {
    if (b.heading) body.push(`<h2>${escapeHtml(b.heading)}</h2>`);
    if (b.table) body.push(htmlTable(b.table));
    if (b.chart) body.push(...htmlChart(b.chart));
    for (const note of b.notes ?? []) body.push(`<p>${escapeHtml(note)}</p>`);
    if (b.list) body.push(`<ul>${b.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head><body>
${body.join('\n')}
</body></html>
`;
}

function htmlTable(t: ReportTable): string {
  const cells = (row: string[], tag: string) => row.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('');
  return `<table><thead><tr>${cells(t.headers, 'th')}</tr></thead>
<tbody>${t.rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('\n')}</tbody></table>`;
}

function htmlChart(chart: ReportChart): string[] {
  return [
    `<h2>${escapeHtml(chart.title)}</h2>`,
    ...chart.bars.map((b) =>
      b.share === null
        ? `<div>${escapeHtml(b.label)}: ${escapeHtml(b.display)}</div>`
        : `<div>${escapeHtml(b.label)} <span class="bar" style="width:${Math.round(300 * b.share)}px"></span> ${escapeHtml(b.display)}</div>`,
    ),
  ];
}
