import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { ReportSection } from '../family/benchmark-family.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { type ReportFormat, type RunHeader, runHeader } from './report-format.js';

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

// Every leaderboard a run has, one part per family with results (the JSON report names each
// family's keys once, after the run).
export function renderRunReport(r: FullRunReport, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify({ run: r.run, ...sectionsJson(r) }, null, 2)}\n`;
  return r.parts
    .filter(({ section, part }) => section.hasResults(part))
    .map(({ section, part }) => section.render(part, format))
    .join('\n');
}
