import { formatTextTable } from '@precis/text';
import { fitTable, TERMINAL_WIDTH } from './fit-table.js';
import type { CsvValue, ReportBlock, ReportTable } from './report-blocks.js';
import type { PageData } from './report-figures.js';
import { csvCell, type ReportFormat } from './report-format.js';

// The formats the engine renders itself; HTML is the web page, rendered above the engine from
// the page data (blocksPageData, runPageData).
export type TextFormat = Exclude<ReportFormat, 'json' | 'html'>;

// One style for every family: a title, then each block as its heading, table, notes and list.
export function renderBlocks(
  title: string,
  blocks: readonly ReportBlock[],
  format: TextFormat,
  opts: TextOptions = {},
): string {
  switch (format) {
    case 'md':
      return renderMarkdown(title, blocks);
    case 'text':
      return renderText(title, blocks, opts);
    case 'csv':
      return renderCsv(blocks);
  }
}

// A heading with its internal id, e.g. 'Title (metric), ranked by Column [metric.0]'.
const headingText = (b: ReportBlock) => (b.label ? `${b.heading} [${b.label}]` : b.heading!);

export function renderMarkdown(title: string, blocks: readonly ReportBlock[]): string {
  const lines = [`# ${title}`];
  for (const b of blocks) {
    lines.push('');
    if (b.heading) lines.push(`## ${headingText(b)}`, '');
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
    if (b.heading) lines.push(headingText(b), '');
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

// What the web page shows of blocks (and figures, when given): the data an HTML report file
// inlines, in the same style as the served leaderboard.
export function blocksPageData(
  title: string,
  blocks: readonly ReportBlock[],
  extra: Partial<PageData> = {},
): PageData {
  return {
    title,
    blocks: [...blocks],
    figures: extra.figures ?? [],
    ...(extra.run ? { run: extra.run } : {}),
    ...(extra.usage ? { usage: extra.usage } : {}),
    ...(extra.sections ? { sections: extra.sections } : {}),
  };
}
