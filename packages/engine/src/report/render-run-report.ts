import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import { PreconditionError } from '../errors/domain-errors.js';
import type { ReportSection } from '../family/benchmark-family.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { DEFAULT_ALPHA } from '../leaderboard/evidence-rank.js';
import { type UsageSoFar, usageSoFar } from '../queries/run-queries.js';
import { type BenchmarkSpec, isGeneratedSystem } from '../spec/benchmark-spec.schema.js';
import { loadDocumentValues, loadSystemUsage } from './board-inputs.js';
import { type RankedBoard, rankBoard, type SectionJson, sectionJson } from './leaderboard-board.js';
import { loadModelNotes, type ModelNote, modelNotesBlocks } from './model-notes.js';
import type { ReportBlock } from './report-blocks.js';
import type { PageData } from './report-figures.js';
import { type RunHeader, reportTitle, runHeader } from './report-format.js';
import { renderBlocks, type TextFormat, type TextOptions } from './report-render.js';

export interface FullRunReport {
  run: RunHeader;
  // Each loaded family's report part, in family order, with its leaderboards ranked.
  parts: { section: ReportSection; part: unknown; ranked: RankedBoard[] }[];
  // USD per system from the ledger (model and plugin calls), for the quality-vs-cost figures.
  costs: Record<string, number>;
  // How requests were shaped to their models (ledger notes), per system and model.
  modelNotes?: ModelNote[];
  // What the run paid: every ledger row (the page's run header shows it).
  usage?: UsageSoFar;
}

export interface ReportOptions {
  // The leaderboards' significance level (default: the spec's bootstrap.alpha, else 0.05).
  alpha?: number;
}

// A run made with a family this process did not load would read as one without results.
function checkFamiliesLoaded(families: FamilyRegistry, run: RunEntity): void {
  const spec = run.spec as Partial<BenchmarkSpec>;
  const named = (kind: string, name: unknown, known: ReadonlyMap<string, unknown>) =>
    typeof name === 'string' && !known.has(name) ? [`${kind} "${name}"`] : [];
  const missing = new Set([
    // A source's systems carry the source's name as their strategy too.
    ...(spec.systems ?? []).flatMap((s) =>
      isGeneratedSystem(s)
        ? named('strategy', s.strategy, families.strategies)
        : named('system source', s.source, families.sources),
    ),
    ...(spec.metrics ?? []).flatMap((m) => named('metric', m.name, families.metrics)),
  ]);
  if (missing.size)
    throw new PreconditionError(
      `run ${run.id} uses ${[...missing].join(', ')}, which no loaded benchmark family defines: ` +
        'load the family that does (PRECIS_FAMILIES), as when the run was made',
    );
}

// Every family's part of a run's report, its leaderboards ranked by evidence.
export async function loadFullRunReport(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
  opts: ReportOptions = {},
): Promise<FullRunReport> {
  checkFamiliesLoaded(families, run);
  const loaded: LoadedPart[] = [];
  for (const section of families.reportSections) loaded.push({ section, part: await section.load(db, run) });
  return assembleRunReport(db, run, loaded, opts);
}

export type LoadedPart = { section: ReportSection; part: unknown };

// The report of loaded parts: each board ranked on the per-document values of its ranking metric
// with the spec's bootstrap resamples and seed, beside the ledger's usage and notes.
export async function assembleRunReport(
  db: DataSource,
  run: RunEntity,
  loaded: readonly LoadedPart[],
  opts: ReportOptions = {},
): Promise<FullRunReport> {
  const boards = loaded.map(({ section, part }) =>
    section.hasResults(part) ? (section.boards?.(part) ?? []) : [],
  );
  const spec = run.spec as Partial<BenchmarkSpec>;
  const [values, systemUsage, modelNotes, usage] = await Promise.all([
    loadDocumentValues(
      db,
      run.id,
      boards.flat().map((b) => b.ranking.metric),
      boards.flat().flatMap((b) => b.rows.map((r) => r.system)),
    ),
    loadSystemUsage(db, run.id),
    loadModelNotes(db, run.id),
    usageSoFar(db, run.id),
  ]);
  const rankOpts = {
    alpha: opts.alpha ?? spec.bootstrap?.alpha ?? DEFAULT_ALPHA,
    resamples: spec.bootstrap?.resamples ?? 1000,
    seed: spec.seed ?? 1,
    usage: systemUsage,
  };
  const parts = loaded.map((p, i) => ({
    ...p,
    ranked: boards[i]!.map((b) => rankBoard(b, values, rankOpts)),
  }));
  const costs = Object.fromEntries([...systemUsage].map(([system, u]) => [system, u.costUsd]));
  return { run: runHeader(run), parts, costs, modelNotes, usage };
}

// Every leaderboard of the run in one shape, in family order (the JSON report's `sections`).
export const reportSections = (r: FullRunReport): SectionJson[] =>
  withResults(r).flatMap(({ ranked }) => ranked.map(sectionJson));

// What the engine adds to a JSON report after the sections: `modelNotes` when a call was shaped
// to its model.
export function runNotesJson(r: FullRunReport): Record<string, unknown> {
  return r.modelNotes?.length ? { modelNotes: r.modelNotes } : {};
}

// The JSON report as an object: the run, its leaderboards as sections, then the engine's notes.
export function reportJson(r: FullRunReport): Record<string, unknown> {
  return { run: r.run, sections: reportSections(r), ...runNotesJson(r) };
}

export function hasResults(r: FullRunReport): boolean {
  return r.parts.some(({ section, part }) => section.hasResults(part));
}

// Whether a report has anything to show: a family's results or how the models ran.
export const hasReportBlocks = (r: FullRunReport): boolean => hasResults(r) || Boolean(r.modelNotes?.length);

// Every leaderboard a run has: the blocks of each family with results under one title (the JSON
// report gives them as sections, after the run). HTML is rendered above the engine from
// runPageData.
export function renderRunReport(
  r: FullRunReport,
  format: TextFormat | 'json',
  opts: TextOptions = {},
): string {
  if (format === 'json') return `${JSON.stringify(reportJson(r), null, 2)}\n`;
  return renderBlocks(reportTitle(r.run), resultBlocks(r), format, opts);
}

const withResults = (r: FullRunReport) => r.parts.filter(({ section, part }) => section.hasResults(part));

// The blocks of each family with results, in family order, then how the models ran.
const resultBlocks = (r: FullRunReport): ReportBlock[] => [
  ...withResults(r).flatMap(({ section, part, ranked }) => section.blocks(part, ranked)),
  ...modelNotesBlocks(r.modelNotes),
];

// What the web page shows of a run: the blocks of each family with results and their figures.
export function runPageData(r: FullRunReport): PageData {
  return {
    title: reportTitle(r.run),
    run: r.run,
    ...(r.usage ? { usage: r.usage } : {}),
    blocks: resultBlocks(r),
    sections: reportSections(r),
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
