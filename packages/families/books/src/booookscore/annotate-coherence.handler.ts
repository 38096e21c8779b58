import type { RunContext } from '@precis/engine/family';
import { ConfigurationError, runTemplate, type TemplateOverrides } from '@precis/engine/family';
import { annotateDuplication, DUPLICATION_ENGINE } from '@precis/engines';
import { OutputParseError, renderTemplate } from '@precis/prompts';
import { splitSentences } from '@precis/text';
import type {
  AnnotateCoherencePayload,
  AnnotateCoherenceResult,
  CoherenceVerdictRecord,
} from '../payloads.js';
import {
  parseBatchAnnotation,
  parseSentenceAnnotation,
  type SentenceVerdict,
} from '../prompts/annotate.parser.js';
import { ANNOTATE_BATCH_TEMPLATE, ANNOTATE_SENTENCE_TEMPLATE } from '../prompts/annotate.templates.js';
import type { BooookScoreMetricSpec } from './booookscore-spec.js';

export const HEURISTIC_JUDGE = `engine:${DUPLICATION_ENGINE}`;

// Raised when the judge's replies stay unparseable after every attempt: the batch is recorded as
// an explicit failure, never as "no confusion".
export class JudgeOutputError extends Error {
  constructor(
    message: string,
    readonly outputs: string[],
    readonly judge: string,
    readonly templateVersion: string,
  ) {
    super(message);
    this.name = 'JudgeOutputError';
  }
}

function record(n: number, v: SentenceVerdict): CoherenceVerdictRecord {
  return { n, confusing: v.confusing, questions: v.questions, types: v.types };
}

export async function annotateCoherence(
  ctx: RunContext,
  task: { id: string; runId: string },
  payload: AnnotateCoherencePayload,
  summaryText: string,
  metric: BooookScoreMetricSpec,
  cache: boolean,
  overrides?: TemplateOverrides,
): Promise<AnnotateCoherenceResult> {
  if (metric.judge.engine === 'heuristic') {
    const all = annotateDuplication(splitSentences(summaryText));
    return {
      judge: HEURISTIC_JUDGE,
      templateVersion: null,
      verdicts: payload.sentences.map(({ n }) => {
        const v = all[n - 1];
        if (!v) {
          throw new ConfigurationError(
            `task ${task.id}: sentence ${n} is not in summary ${payload.summaryId} (${all.length} sentences); the summary changed after planning: start a new run with --fresh`,
          );
        }
        return { n, confusing: v.confusing, questions: v.questions, types: v.types };
      }),
    };
  }
  if (!ctx.chat)
    throw new ConfigurationError(
      `the BooookScore judge needs model ${metric.judge.model}, but no model registry is configured`,
    );
  const model = metric.judge.model!;
  const single = payload.sentences.length === 1 && metric.mode === 'sentence';
  const template = runTemplate(single ? ANNOTATE_SENTENCE_TEMPLATE : ANNOTATE_BATCH_TEMPLATE, overrides);
  const vars: Record<string, string | number> = single
    ? { summary: summaryText, sentence: payload.sentences[0]!.text }
    : {
        summary: summaryText,
        numberedSentences: payload.sentences.map((s) => `[${s.n}] ${s.text}`).join('\n'),
        firstNumber: payload.sentences[0]!.n,
      };
  const outputs: string[] = [];
  for (let attempt = 0; attempt < metric.maxAttempts; attempt++) {
    const reply = await ctx.chat.chat({
      model,
      messages: renderTemplate(template, vars),
      temperature: metric.judge.temperature,
      runId: task.runId,
      taskId: task.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#reask-${attempt}`,
      cache,
    });
    outputs.push(reply.text);
    try {
      const verdicts = single
        ? [record(payload.sentences[0]!.n, parseSentenceAnnotation(reply.text, template.id))]
        : [
            ...parseBatchAnnotation(
              reply.text,
              payload.sentences.map((s) => s.n),
              template.id,
            ),
          ]
            .map(([n, v]) => record(n, v))
            .sort((a, b) => a.n - b.n);
      return { judge: `model:${model}`, templateVersion: `${template.id}@${template.version}`, verdicts };
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      ctx.logger.warn('unparseable judge reply', { taskId: task.id, attempt, error: err.message });
    }
  }
  throw new JudgeOutputError(
    `judge ${model} gave no parseable answer in ${metric.maxAttempts} attempt(s)`,
    outputs,
    `model:${model}`,
    `${template.id}@${template.version}`,
  );
}
