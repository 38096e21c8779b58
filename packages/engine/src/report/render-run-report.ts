import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import { loadRunReport } from '../queries/run-queries.js';
import {
  type DimensionReport,
  loadDimensionReport,
  rankedBoards,
  renderDimensionReport,
} from './render-dimension-leaderboard.js';
import { type ReportFormat, type RunReport, rankRows, renderReport } from './render-leaderboard.js';

export interface FullRunReport {
  booookscore: RunReport;
  dimensions: DimensionReport;
}

export async function loadFullRunReport(db: DataSource, run: RunEntity): Promise<FullRunReport> {
  return { booookscore: await loadRunReport(db, run), dimensions: await loadDimensionReport(db, run) };
}

export function hasResults(r: FullRunReport): boolean {
  return r.booookscore.leaderboard.length > 0 || r.dimensions.boards.length > 0;
}

// Every leaderboard a run has: BooookScore rows and/or the dimension judges' tables.
export function renderRunReport(r: FullRunReport, format: ReportFormat): string {
  if (format === 'json') {
    return `${JSON.stringify({ run: r.booookscore.run, leaderboard: rankRows(r.booookscore.leaderboard), dimensions: rankedBoards(r.dimensions.boards) }, null, 2)}\n`;
  }
  const parts: string[] = [];
  if (r.booookscore.leaderboard.length) parts.push(renderReport(r.booookscore, format));
  if (r.dimensions.boards.length) parts.push(renderDimensionReport(r.dimensions, format));
  return parts.join('\n');
}
