import {
  type BenchmarkSpec,
  ConfigurationError,
  type JudgmentRow,
  judgmentId,
  type RunContext,
} from '@precis/engine/family';
import { LEXICAL_VERIFIER } from '@precis/engines';
import { isKgdsMetric, judgeModel, type KgdsMetricSpec } from '../kgds-spec.js';
import { type KgdsSample, loadKgdsSample } from '../sample.js';
import { type KgdsParts, summaryParts } from '../summary/summary-parts.js';
import type { JudgeCall } from './judge-calls.js';

export interface KgdsVerifyPayload {
  type: 'kgds-verify';
  system: string;
  documentId: string;
  summaryId: string;
  metricIndex: number;
  // The summarize task holding a generated summary's parts, read along with the task's claim.
  inputTask?: string;
}

// What a KGDS verify task works on: the metric, the sample, the summary's parts and the judge.
export interface VerifyContext {
  ctx: RunContext;
  task: { id: string; runId: string };
  payload: KgdsVerifyPayload;
  spec: BenchmarkSpec;
  metric: KgdsMetricSpec;
  sample: KgdsSample;
  parts: KgdsParts;
  // Who judged: 'model:<m>' or the offline verifier, labelled heuristic in reports.
  judge: string;
  // Set for a model judge.
  call?: JudgeCall;
}

export async function verifyContext(
  ctx: RunContext,
  task: { id: string; runId: string },
  payload: KgdsVerifyPayload,
  spec: BenchmarkSpec,
): Promise<VerifyContext> {
  const metric = spec.metrics[payload.metricIndex];
  if (!metric || !isKgdsMetric(metric))
    throw new ConfigurationError(`task ${task.id}: metrics[${payload.metricIndex}] is not a kgds metric`);
  const [sample, parts] = await Promise.all([
    loadKgdsSample(ctx.db, payload.documentId),
    summaryParts(ctx, task.runId, spec, {
      id: payload.summaryId,
      system: payload.system,
      documentId: payload.documentId,
    }),
  ]);
  const model = judgeModel(metric);
  const base = { ctx, task, payload, spec, metric, sample, parts };
  if (model === undefined) return { ...base, judge: `engine:${LEXICAL_VERIFIER} (heuristic)` };
  const temperature = 'temperature' in metric.judge ? metric.judge.temperature : 0;
  return {
    ...base,
    judge: `model:${model}`,
    call: {
      ctx,
      task,
      model,
      temperature,
      attempts: metric.maxAttempts,
      cache: spec.cache,
      overrides: spec.templateOverrides,
    },
  };
}

// A judgment row of this task (unit = the item's position in the task's list).
export function judgmentRow(
  v: VerifyContext,
  part: string,
  unit: number,
  verdict: Record<string, unknown>,
  templateVersion: string | null,
): JudgmentRow {
  return {
    id: judgmentId(v.payload.summaryId, `kgds.${v.payload.metricIndex}.${part}`, unit),
    runId: v.task.runId,
    summaryId: v.payload.summaryId,
    system: v.payload.system,
    metric: `kgds.${v.payload.metricIndex}.${part}`,
    unit,
    status: 'ok',
    verdict,
    judge: v.judge,
    templateVersion,
    taskId: v.task.id,
  };
}
