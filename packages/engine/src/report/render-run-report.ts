import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { ReportSection } from '../family/benchmark-family.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import type { ReportBlock } from './report-blocks.js';
import { type ReportFormat, type RunHeader, reportTitle, runHeader } from './report-format.js';
import { renderBlocks, type TextOptions } from './report-render.js';

export interface FullRunReport {
  run: RunHeader;
  // Each loaded family's report part, in family order.
  parts: { section: ReportSection; part: unknown }[];
}

export async function loadFullRunReport(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
): Promise<FullRunReport> {
  const parts: FullRunReport['parts'] = [];
  for (const section of families.reportSections) parts.push({ section, part: await section.load(db, run) });
  return { run: runHeader(run), parts };
}

// What each family's part adds to a JSON report (its leaderboards), in family order.
export function sectionsJson(r: FullRunReport): Record<string, unknown> {
  return Object.assign({}, ...r.parts.map(({ section, part }) => section.json(part)));
}

export function hasResults(r: FullRunReport): boolean {
  return r.parts.some(({ section, part }) => section.hasResults(part));
}

// Every leaderboard a run has: the blocks of each family with results under one title (the JSON
// report names each family's keys once, after the run).
export function renderRunReport(r: FullRunReport, format: ReportFormat, opts: TextOptions = {}): string {
  if (format === 'json') return `${JSON.stringify({ run: r.run, ...sectionsJson(r) }, null, 2)}\n`;
  const blocks: ReportBlock[] = r.parts
    .filter(({ section, part }) => section.hasResults(part))
    .flatMap(({ section, part }) => section.blocks(part));
  return renderBlocks(reportTitle(r.run), blocks, format, opts);
}

// The families' trace blocks of one document of a run (verdicts and the like), in family order.
export async function loadTraceBlocks(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
  documentId: string,
): Promise<ReportBlock[]> {
  const blocks: ReportBlock[] = [];
  for (const section of families.reportSections)
    blocks.push(...((await section.trace?.(db, run, documentId)) ?? []));
  return blocks;
}
