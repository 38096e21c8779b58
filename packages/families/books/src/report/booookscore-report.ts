import { MetricValueEntity, type RunEntity } from '@precis/db';
import {
  type BenchmarkSpec,
  errorRows,
  judgedBy,
  type ReportFigure,
  type ReportSection,
  runHeader,
} from '@precis/engine';
import { type DataSource, IsNull } from 'typeorm';
import type { LeaderboardRow } from '../booookscore/leaderboard-row.js';
import { booookScoreTrace } from './booookscore-trace.js';
import { booookScoreBlocks, type RunReport, rankRows } from './render-leaderboard.js';

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
    .map((r) => withWork(r.details as unknown as StoredRow));
  const spec = run.spec as unknown as BenchmarkSpec;
  return {
    run: runHeader(run),
    leaderboard,
    bootstrapResamples: spec.bootstrap?.resamples ?? 1000,
  };
}

const x100 = (x: number) => 100 * x;

// One figure per BooookScore metric: score and CI in percent, coherence errors by type.
export function booookScoreFigures(r: RunReport): ReportFigure[] {
  return [...new Set(r.leaderboard.map((x) => x.metric))].map((metric) => {
    const rows = r.leaderboard.filter((x) => x.metric === metric);
    const judges = rows.map((x) => (x.judgeTemplate ? `${x.judge} (${x.judgeTemplate})` : x.judge));
    return {
      key: metric,
      title: `${/^booookscore$/i.test(metric) ? 'BooookScore' : `BooookScore (${metric})`}, ${judgedBy(judges)}`,
      metric: 'BooookScore (%)',
      higherIsBetter: true,
      points: rows.map((x) => ({
        system: x.system,
        score: x.score === null ? null : x100(x.score),
        ci95: x.ci95 ? [x100(x.ci95[0]), x100(x.ci95[1])] : null,
        costUsd: null,
      })),
      errors: errorRows(rows),
    };
  });
}

export const booookScoreReport: ReportSection<RunReport> = {
  load: loadRunReport,
  hasResults: (r) => r.leaderboard.length > 0,
  blocks: booookScoreBlocks,
  json: (r) => ({ leaderboard: rankRows(r.leaderboard) }),
  figures: booookScoreFigures,
  trace: booookScoreTrace,
};
