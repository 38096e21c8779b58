import type { TaskEntity } from '@precis/db';
import type { Metric, TaskKind } from '@precis/engine';
import type { GevalStepsPayload, JudgeDimensionPayload } from '../payloads.js';
import { DimensionPlanner } from './dimension-planner.js';
import { dimensionsMetricSpec } from './dimensions-spec.js';
import { generateGevalSteps, judgeDimension } from './judge-dimension.handler.js';

// The seven-dimension judges: G-Eval's steps tasks are run-level (once per dimension); when one
// finishes, the engine re-plans every summary's judges of this metric, which now carry the steps.
export const dimensionsMetric: Metric = {
  name: 'dimensions',
  schema: dimensionsMetricSpec,
  async open(ctx, runId, spec) {
    const rows: TaskEntity[] = await ctx.db.query(
      `SELECT id, status, result FROM tasks WHERE run_id = $1 AND kind = 'geval-steps' ORDER BY id`,
      [runId],
    );
    const steps = new Map(rows.map((r) => [r.id, r]));
    return {
      tasksFor(summaries) {
        const planner = new DimensionPlanner(runId, spec, steps);
        return summaries.flatMap((s) => planner.tasksFor(s.system, s.documentId, s.id));
      },
      ownsRunTask: (taskId) => taskId.includes(':*geval-steps:'),
    };
  },
};

export const gevalStepsKind: TaskKind = {
  kind: 'geval-steps',
  stage: 'verify',
  handle: async (ctx, ref, payload, spec) => ({
    persisted: await generateGevalSteps(ctx, ref, payload as unknown as GevalStepsPayload, spec),
  }),
};

export const judgeDimensionKind: TaskKind = {
  kind: 'judge-dimension',
  stage: 'verify',
  handle: async (ctx, ref, payload, spec) => ({
    persisted: await judgeDimension(ctx, ref, payload as unknown as JudgeDimensionPayload, spec),
  }),
};
