import type { ChatModel, RunContext } from '@precis/engine/family';
import {
  type BenchmarkSpec,
  ConfigurationError,
  finishTask,
  judgmentId,
  metricValueId,
  summaryText,
} from '@precis/engine/family';
import { OutputParseError } from '@precis/prompts';
import type { GevalStepsPayload, GevalStepsResult, JudgeDimensionPayload } from '../payloads.js';
import { renderGevalStepsPrompt } from '../prompts/geval.templates.js';
import { parseEvaluationSteps } from '../prompts/steps.parser.js';
import { documentReviews } from '../summary/reviews.js';
import { dimensionMetricKey } from './dimension-planner.js';
import {
  type DimensionsMetricSpec,
  GEVAL_STEPS_TEMPERATURE,
  isDimensionsMetric,
  judgeTemperature,
  TOP_LOGPROBS,
} from './dimensions-spec.js';
import { finishDimensionJudgment } from './finish-judgment.js';
import {
  asDimension,
  checkTemplate,
  gevalStepsTemplate,
  judgeProducer,
  judgeTemplate,
  renderJudgePrompt,
  templateRef,
} from './judge-templates.js';
import { type JudgeSample, scoreJudgeSamples } from './sample-scoring.js';

function dimensionMetric(spec: BenchmarkSpec, index: number, taskId: string): DimensionsMetricSpec {
  const m = spec.metrics[index];
  if (!m || !isDimensionsMetric(m))
    throw new ConfigurationError(
      `task ${taskId}: metric #${index} is not a "dimensions" metric of the run's spec`,
    );
  return m;
}

function judgeChat(ctx: RunContext, metric: DimensionsMetricSpec): ChatModel {
  if (!ctx.chat)
    throw new ConfigurationError(
      `the dimension judge needs model ${metric.judge.model}, but no model registry is configured`,
    );
  return ctx.chat;
}

// G-Eval: asks the judge for its evaluation steps of one dimension (re-asked up to maxAttempts
// when they do not parse). The steps are the task's result, reused by every scoring task.
export async function generateGevalSteps(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: GevalStepsPayload,
  spec: BenchmarkSpec,
): Promise<'done' | 'failed'> {
  const metric = dimensionMetric(spec, payload.metricIndex, ref.id);
  const dimension = asDimension(payload.dimension, `task ${ref.id}`);
  const template = gevalStepsTemplate(dimension, spec.templateOverrides);
  checkTemplate(template, payload.templateId, payload.templateVersion, `task ${ref.id}`);
  const chat = judgeChat(ctx, metric);
  const outputs: string[] = [];
  for (let attempt = 0; attempt < metric.maxAttempts; attempt++) {
    const reply = await chat.chat({
      model: metric.judge.model,
      messages: renderGevalStepsPrompt(dimension, template),
      temperature: GEVAL_STEPS_TEMPERATURE,
      runId: ref.runId,
      taskId: ref.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#reask-${attempt}`,
      cache: spec.cache,
    });
    outputs.push(reply.text);
    try {
      const steps = parseEvaluationSteps(reply.text, template.id);
      const result: GevalStepsResult = {
        judge: `model:${metric.judge.model}`,
        template: templateRef(template),
        steps,
        attempts: attempt + 1,
      };
      await finishTask(ctx.db.manager, ref.id, 'done', result, null);
      return 'done';
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      ctx.logger.warn('unparseable G-Eval steps', { taskId: ref.id, attempt, error: err.message });
    }
  }
  const message = `judge ${metric.judge.model} wrote no parseable evaluation steps for ${dimension} in ${metric.maxAttempts} attempt(s)`;
  await finishTask(
    ctx.db.manager,
    ref.id,
    'failed',
    { judge: `model:${metric.judge.model}`, template: templateRef(template), outputs },
    message,
  );
  return 'failed';
}

// What a judgment's row and metric value say about how its score was reached.
function judgmentDetails(
  metric: DimensionsMetricSpec,
  score: ReturnType<typeof scoreJudgeSamples>,
  temperature: number,
  template: string,
): Record<string, unknown> {
  return {
    n: score.n,
    parsed: score.parsed,
    unparsed: score.unparsed,
    distribution: score.distribution,
    family: metric.family,
    method: score.method,
    sampleMean: score.sampleMean,
    temperature,
    judge: `model:${metric.judge.model}`,
    template,
    ...(score.logprob ? { logprob: score.logprob } : {}),
    ...(score.failure ? { failure: score.failure } : {}),
  };
}

// One (summary, dimension) judgment: the metric's n samples, each its own call with its own
// cache-key suffix (a re-run hits the cache sample by sample), issued concurrently. Persists
// the judgment and the metric_values row packages/meta reads, in one statement with the task.
export async function judgeDimension(
  ctx: RunContext,
  ref: { id: string; runId: string },
  payload: JudgeDimensionPayload,
  spec: BenchmarkSpec,
): Promise<'done' | 'failed'> {
  const metric = dimensionMetric(spec, payload.metricIndex, ref.id);
  const dimension = asDimension(payload.dimension, `task ${ref.id}`);
  const template = judgeTemplate(metric.family, dimension, spec.templateOverrides);
  checkTemplate(template, payload.templateId, payload.templateVersion, `task ${ref.id}`);
  const chat = judgeChat(ctx, metric);
  const text = await summaryText(ctx.db, payload.summaryId);
  if (text === null)
    throw new ConfigurationError(`task ${ref.id}: summary ${payload.summaryId} does not exist`);
  const reviews = await documentReviews(ctx.db, payload.documentId);
  const messages = renderJudgePrompt(
    metric.family,
    dimension,
    { reviews, summary: text },
    payload.steps,
    template,
  );
  const temperature = judgeTemperature(metric);
  const replies = await chat.chatSamples(
    {
      model: metric.judge.model,
      messages,
      temperature,
      runId: ref.runId,
      taskId: ref.id,
      templateVersion: template.version,
      cache: spec.cache,
      ...(metric.logprobs ? { logprobs: true, topLogprobs: TOP_LOGPROBS } : {}),
    },
    metric.samples,
  );
  const samples: JudgeSample[] = replies.map((reply) => ({
    text: reply.text,
    ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
  }));
  const score = scoreJudgeSamples(samples, { templateId: template.id, logprobs: metric.logprobs });
  const producedBy = judgeProducer(metric.judge.model, template);
  const key = dimensionMetricKey(payload.metricIndex);
  const details = judgmentDetails(metric, score, temperature, templateRef(template));
  const status = score.value === null ? 'failed' : 'done';
  const result = { ...details, dimension, score: score.value, errors: score.errors };
  await finishDimensionJudgment(ctx.db, {
    taskId: ref.id,
    status,
    result,
    error: score.failure,
    runId: ref.runId,
    summaryId: payload.summaryId,
    documentId: payload.documentId,
    system: payload.system,
    judgmentId: judgmentId(payload.summaryId, `${key}:${dimension}`, 0),
    metricValueId: metricValueId(ref.runId, payload.system, payload.documentId, `dimension:${dimension}`),
    metric: `dimension:${dimension}`,
    value: score.value,
    details,
    judge: `model:${metric.judge.model}`,
    template: templateRef(template),
    producedBy,
  });
  return status;
}
