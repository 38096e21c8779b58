import { MetricValueEntity, type RunEntity } from '@precis/db';
import { type BenchmarkSpec, type ReportSection, runHeader } from '@precis/engine/family';
import { type DataSource, IsNull } from 'typeorm';
import type { LeaderboardRow } from '../booookscore/leaderboard-row.js';
import { booookScoreTrace } from './booookscore-trace.js';
import {
  booookScoreBlocks,
  booookScoreBoards,
  booookScoreFigures,
  type RunReport,
} from './render-leaderboard.js';

type StoredRow = LeaderboardRow & { incomplete?: number };

// Rows stored before failures were counted by kind carry one `incomplete` count instead.
function withWork(r: StoredRow): LeaderboardRow {
  if (r.work) return r;
  const failed = r.incomplete ?? 0;
  const work = {
    summaries: { expected: r.summaries + failed, failed },
    judgments: { expected: 0, failed: 0 },
  };
  if (!failed) return { ...r, work, status: 'complete' };
  // Their score was a mean over what survived: not shown any more.
  const status = `incomplete: ${failed} of ${r.summaries + failed} summaries not scored (failures not counted by kind)`;
  return { ...r, work, status, score: null, ci95: null, bootstrapStd: null };
}

// The leaderboard as the scoring stage stored it (system-level metric values).
export async function loadRunReport(db: DataSource, run: RunEntity): Promise<RunReport> {
  const rows = await db
    .getRepository(MetricValueEntity)
    .find({ where: { runId: run.id, documentId: IsNull() }, order: { id: 'ASC' } });
  // System-level BooookScore rows (dimension judges have their own report).
  const leaderboard = rows
    .filter((r) => r.metric.startsWith('booookscore.'))
    .map((r) => ({ ...withWork(r.details as unknown as StoredRow), metricKey: r.metric }));
  const spec = run.spec as unknown as BenchmarkSpec;
  return {
    run: runHeader(run),
    leaderboard,
    bootstrapResamples: spec.bootstrap?.resamples ?? 1000,
  };
}

export const booookScoreReport: ReportSection<RunReport> = {
  load: loadRunReport,
  hasResults: (r) => r.leaderboard.length > 0,
  boards: booookScoreBoards,
  blocks: booookScoreBlocks,
  figures: booookScoreFigures,
  trace: booookScoreTrace,
};
