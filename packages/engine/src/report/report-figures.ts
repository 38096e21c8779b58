import type { UsageSoFar } from '../queries/run-queries.js';
import type { SectionJson } from './leaderboard-board.js';
import type { ReportBlock } from './report-blocks.js';
import type { RunHeader } from './report-format.js';

// One leaderboard drawn as charts (web page and HTML report): each system's score with its 95%
// CI, score against cost, and error counts by type when the metric has them.
export interface ReportFigure {
  key: string;
  // Names the metric and what produced it (judge model or offline engine, template version).
  title: string;
  // The score axis with its unit, e.g. 'Score (%)'.
  metric: string;
  higherIsBetter: boolean;
  points: FigurePoint[];
  errors?: { types: string[]; rows: { system: string; counts: number[] }[] };
}

export interface FigurePoint {
  system: string;
  score: number | null;
  ci95: [number, number] | null;
  // What the system's summaries and their judgments cost, when known.
  costUsd: number | null;
}

// What the web page draws for a run (or a leaderboard without one): the report's blocks plus
// its figures. The HTML report is the page with this data inside.
export interface PageData {
  title: string;
  run?: RunHeader;
  // What the run's model calls took (calls, tokens with their cached and reasoning shares, cost).
  usage?: UsageSoFar;
  blocks: ReportBlock[];
  // The run's leaderboards as the JSON report gives them (a leaderboard block's key is its
  // section's): titles, ranking metric, ranks.
  sections?: SectionJson[];
  figures: ReportFigure[];
}

// Error counts per system over the union of their types, in first-seen order.
export function errorRows(
  rows: readonly { system: string; errorTypes: Record<string, number> }[],
): NonNullable<ReportFigure['errors']> | undefined {
  const types = [...new Set(rows.flatMap((r) => Object.keys(r.errorTypes)))];
  if (types.length === 0) return undefined;
  return {
    types,
    rows: rows.map((r) => ({ system: r.system, counts: types.map((t) => r.errorTypes[t] ?? 0) })),
  };
}

// A figure title's producer part: every distinct judge (with template), e.g. 'judged by model:x'.
export const judgedBy = (producers: readonly string[]): string =>
  `judged by ${[...new Set(producers)].join(', ') || 'nothing recorded'}`;
