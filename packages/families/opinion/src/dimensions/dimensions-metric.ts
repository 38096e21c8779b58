import type { BenchmarkSpec, Metric, ModelUse, TaskKind } from '@precis/engine/family';
import type { GevalStepsPayload, JudgeDimensionPayload } from '../payloads.js';
import { gevalStepTasks } from '../store.js';
import { DimensionPlanner } from './dimension-planner.js';
import {
  type DimensionsMetricSpec,
  dimensionsMetricSpec,
  GEVAL_STEPS_TEMPERATURE,
  judgeTemperature,
  TOP_LOGPROBS,
} from './dimensions-spec.js';

// The judge's scoring calls (at judgeTemperature, with logprobs when asked), and for G-Eval its
// evaluation steps, written once per dimension at temperature 0.
function dimensionsModelUses(spec: BenchmarkSpec, index: number): ModelUse[] {
  const m = spec.metrics[index] as DimensionsMetricSpec;
  const judge = { model: m.judge.model, role: 'the judge', changeModel: 'judge with' };
  const scoring: ModelUse = {
    ...judge,
    where: `metrics[${index}] (dimensions judge${m.logprobs ? ', logprobs: true' : ''})`,
    temperature: judgeTemperature(m),
    temperatureField: `metrics[${index}].temperature`,
    ...(m.logprobs
      ? {
          logprobs: {
            top: TOP_LOGPROBS,
            fix: `set metrics[${index}].logprobs: false (score = mean of the parsed samples)`,
          },
        }
      : {}),
  };
  if (m.family !== 'g-eval') return [scoring];
  const steps: ModelUse = {
    ...judge,
    where: `metrics[${index}] (dimensions judge, G-Eval evaluation steps)`,
    temperature: GEVAL_STEPS_TEMPERATURE,
    temperatureFix: `set metrics[${index}].family: op-i or op (no evaluation steps)`,
  };
  return [scoring, steps];
}

import { generateGevalSteps, judgeDimension } from './judge-dimension.handler.js';

// The seven-dimension judges: G-Eval's steps tasks are run-level (once per dimension); when one
// finishes, the engine re-plans every summary's judges of this metric, which now carry the steps.
export const dimensionsMetric: Metric = {
  name: 'dimensions',
  schema: dimensionsMetricSpec,
  async open(ctx, runId, spec) {
    const rows = await gevalStepTasks(ctx.db, runId);
    const steps = new Map(rows.map((r) => [r.id, r]));
    return {
      tasksFor(summaries) {
        const planner = new DimensionPlanner(runId, spec, steps);
        return summaries.flatMap((s) => planner.tasksFor(s.system, s.documentId, s.id));
      },
      ownsRunTask: (taskId) => taskId.includes(':*geval-steps:'),
    };
  },
  modelUses: dimensionsModelUses,
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
