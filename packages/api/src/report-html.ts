// Reports in every format, HTML included: the engine renders text, Markdown, CSV and JSON and
// gives the web page's data; the page itself comes from @precis/web, which the engine never
// imports. One implementation for `precis report`, `precis leaderboard` and the gateway.
import {
  blocksPageData,
  type FullRunReport,
  type PageData,
  type ReportBlock,
  type ReportFormat,
  renderBlocks,
  renderRunReport,
  runPageData,
  type TextOptions,
} from '@precis/engine';
import { webPageHtml } from '@precis/web';

// One self-contained HTML file: the web page with the blocks (and figures, when given) inside.
export function renderHtml(
  title: string,
  blocks: readonly ReportBlock[],
  extra: Partial<PageData> = {},
): string {
  return webPageHtml({ title, data: blocksPageData(title, blocks, extra) });
}

// A run's report in any format.
export function renderRunReportAs(r: FullRunReport, format: ReportFormat, opts: TextOptions = {}): string {
  if (format !== 'html') return renderRunReport(r, format, opts);
  const page = runPageData(r);
  return renderHtml(page.title, page.blocks, page);
}

// Blocks under a title in any format but JSON (whose shape is the caller's own).
export function renderBlocksAs(
  title: string,
  blocks: readonly ReportBlock[],
  format: Exclude<ReportFormat, 'json'>,
  opts: TextOptions = {},
): string {
  return format === 'html' ? renderHtml(title, blocks) : renderBlocks(title, blocks, format, opts);
}
