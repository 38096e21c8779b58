import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { ReportSection } from '../family/benchmark-family.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { systemCosts, type UsageSoFar, usageSoFar } from '../queries/run-queries.js';
import { loadModelNotes, type ModelNote, modelNotesBlocks } from './model-notes.js';
import type { ReportBlock } from './report-blocks.js';
import type { PageData } from './report-figures.js';
import { type ReportFormat, type RunHeader, reportTitle, runHeader } from './report-format.js';
import { renderBlocks, renderHtml, type TextOptions } from './report-render.js';

export interface FullRunReport {
  run: RunHeader;
  // Each loaded family's report part, in family order.
  parts: { section: ReportSection; part: unknown }[];
  // USD per system from the ledger (model and plugin calls), for the quality-vs-cost figures.
  costs: Record<string, number>;
  // How requests were shaped to their models (ledger notes), per system and model.
  modelNotes?: ModelNote[];
  // What the run paid: every ledger row (the page's run header shows it).
  usage?: UsageSoFar;
}

export async function loadFullRunReport(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
): Promise<FullRunReport> {
  const parts: FullRunReport['parts'] = [];
  for (const section of families.reportSections) parts.push({ section, part: await section.load(db, run) });
  const [costs, modelNotes, usage] = await Promise.all([
    systemCosts(db, run.id),
    loadModelNotes(db, run.id),
    usageSoFar(db, run.id),
  ]);
  return { run: runHeader(run), parts, costs, modelNotes, usage };
}

// What each family's part adds to a JSON report (its leaderboards), in family order.
export function sectionsJson(r: FullRunReport): Record<string, unknown> {
  return Object.assign({}, ...r.parts.map(({ section, part }) => section.json(part)));
}

// What the engine adds to a JSON report after the families' keys: `modelNotes` when a call was
// shaped to its model.
export function runNotesJson(r: FullRunReport): Record<string, unknown> {
  return r.modelNotes?.length ? { modelNotes: r.modelNotes } : {};
}

// The JSON report as an object: the run, then each family's keys, then the engine's.
export function reportJson(r: FullRunReport): Record<string, unknown> {
  return { run: r.run, ...sectionsJson(r), ...runNotesJson(r) };
}

export function hasResults(r: FullRunReport): boolean {
  return r.parts.some(({ section, part }) => section.hasResults(part));
}

// Whether a report has anything to show: a family's results or how the models ran.
export const hasReportBlocks = (r: FullRunReport): boolean => hasResults(r) || Boolean(r.modelNotes?.length);

// Every leaderboard a run has: the blocks of each family with results under one title (the JSON
// report names each family's keys once, after the run).
export function renderRunReport(r: FullRunReport, format: ReportFormat, opts: TextOptions = {}): string {
  if (format === 'json') return `${JSON.stringify(reportJson(r), null, 2)}\n`;
  if (format === 'html') {
    const page = runPageData(r);
    return renderHtml(page.title, page.blocks, page);
  }
  return renderBlocks(reportTitle(r.run), resultBlocks(r), format, opts);
}

const withResults = (r: FullRunReport) => r.parts.filter(({ section, part }) => section.hasResults(part));

// The blocks of each family with results, in family order, then how the models ran.
const resultBlocks = (r: FullRunReport): ReportBlock[] => [
  ...withResults(r).flatMap(({ section, part }) => section.blocks(part)),
  ...modelNotesBlocks(r.modelNotes),
];

// What the web page shows of a run: the blocks of each family with results and their figures.
export function runPageData(r: FullRunReport): PageData {
  return {
    title: reportTitle(r.run),
    run: r.run,
    ...(r.usage ? { usage: r.usage } : {}),
    blocks: resultBlocks(r),
    figures: withResults(r)
      .flatMap(({ section, part }) => section.figures?.(part) ?? [])
      .map((f) => ({
        ...f,
        points: f.points.map((p) => ({ ...p, costUsd: p.costUsd ?? r.costs[p.system] ?? 0 })),
      })),
  };
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
