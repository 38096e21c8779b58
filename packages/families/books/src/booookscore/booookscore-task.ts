import {
  type BenchmarkSpec,
  ConfigurationError,
  finishTaskWithJudgments,
  type HandlerResult,
  type JudgmentRow,
  judgmentId,
  type RunContext,
  summaryText,
  type TaskKind,
} from '@precis/engine/family';
import type { AnnotateCoherencePayload } from '../payloads.js';
import { annotateCoherence, JudgeOutputError } from './annotate-coherence.handler.js';
import { isBooookScoreMetric } from './booookscore-spec.js';

export const BOOOKSCORE_BATCH_KIND = 'booookscore-batch';

// One batch of a summary's sentences for the BooookScore judge; its verdicts are stored as
// judgments in the statement that finishes the task.
export async function annotate(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: AnnotateCoherencePayload,
  spec: BenchmarkSpec,
): Promise<HandlerResult> {
  const metric = spec.metrics[payload.metricIndex];
  if (!metric || !isBooookScoreMetric(metric))
    throw new ConfigurationError(`task ${ref.id}: metric #${payload.metricIndex} is not in the run's spec`);
  const text = await summaryText(ctx.db, payload.summaryId);
  if (text === null)
    throw new ConfigurationError(`task ${ref.id}: summary ${payload.summaryId} does not exist`);
  const summary = { id: payload.summaryId, text };
  const metricKey = `${metric.name}.${payload.metricIndex}`;
  const rows = (
    judge: string,
    templateVersion: string | null,
    verdicts: { n: number; status: string; verdict: Record<string, unknown> }[],
  ): JudgmentRow[] =>
    verdicts.map((v) => ({
      id: judgmentId(summary.id, metricKey, v.n),
      runId: ref.runId,
      summaryId: summary.id,
      system: payload.system,
      metric: metricKey,
      unit: v.n,
      status: v.status,
      verdict: v.verdict,
      judge,
      templateVersion,
      taskId: ref.id,
    }));
  try {
    const result = await annotateCoherence(
      ctx,
      ref,
      payload,
      summary.text,
      metric,
      spec.cache,
      spec.templateOverrides,
    );
    const verdicts = result.verdicts.map((v) => ({ n: v.n, status: 'ok', verdict: { ...v } }));
    await finishTaskWithJudgments(
      ctx.db,
      ref.id,
      'done',
      result,
      null,
      rows(result.judge, result.templateVersion, verdicts),
    );
    return { persisted: 'done' };
  } catch (err) {
    if (!(err instanceof JudgeOutputError)) throw err;
    const failed = payload.sentences.map((s) => ({
      n: s.n,
      status: 'failed',
      verdict: { error: err.message, outputs: err.outputs },
    }));
    await finishTaskWithJudgments(
      ctx.db,
      ref.id,
      'failed',
      { judge: err.judge, outputs: err.outputs },
      err.message,
      rows(err.judge, err.templateVersion, failed),
    );
    return { persisted: 'failed' };
  }
}

export const booookScoreBatchTask: TaskKind = {
  kind: BOOOKSCORE_BATCH_KIND,
  stage: 'verify',
  handle: (ctx, ref, payload, spec) =>
    annotate(ctx, ref, payload as unknown as AnnotateCoherencePayload, spec),
};
