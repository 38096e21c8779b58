import { SummaryEntity } from '@precis/db';
import { askParsed, ConfigurationError, summaryId, type TaskKind } from '@precis/engine/family';
import { In } from 'typeorm';
import type { PairwiseMetricSpec } from '../gor-spec.js';
import { loadMeeting } from '../meeting.js';
import { GOR_CRITERIA, type PairwiseVerdict, parsePairwiseVerdict } from '../prompts/gor.parsers.js';
import { GOR_PAIRWISE_TEMPLATE } from '../prompts/gor.templates.js';
import { GorTaskError } from '../steps/step-context.js';
import { type PairwisePayload, pairwiseTaskId } from './gor-metrics.js';

export interface PairwiseResult {
  [key: string]: unknown;
  // False when one of the two summaries did not exist yet (the other side's task judges the pair).
  judged: boolean;
  // The system's wins per criterion over both orders: 0, 0.5 or 1.
  wins?: Record<(typeof GOR_CRITERIA)[number], number>;
  verdicts?: { systemFirst: PairwiseVerdict; baselineFirst: PairwiseVerdict };
  judge?: string;
}

// The pairwise judge (METHODS.md §5.8): the system's summary against the baseline's, in both
// presentation orders (cancelling position bias).
export const pairwiseKind: TaskKind = {
  kind: 'gor-pairwise',
  stage: 'verify',
  async handle(ctx, ref, raw, spec) {
    const p = raw as unknown as PairwisePayload;
    const metric = spec.metrics[p.metricIndex] as PairwiseMetricSpec | undefined;
    if (metric?.name !== 'gor-pairwise')
      throw new ConfigurationError(
        `task ${ref.id}: metrics[${p.metricIndex}] is no longer a gor-pairwise metric; start a new run with --fresh`,
      );
    const ids = [
      summaryId(ref.runId, p.system, p.documentId),
      summaryId(ref.runId, p.baseline, p.documentId),
    ];
    const rows = await ctx.db
      .getRepository(SummaryEntity)
      .find({ select: { id: true, text: true }, where: { id: In(ids) } });
    const [mine, theirs] = ids.map((id) => rows.find((r) => r.id === id)?.text);
    if (mine === undefined || theirs === undefined)
      return { result: { text: '', judged: false } satisfies PairwiseResult };
    const meeting = await loadMeeting(ctx.db, p.documentId);
    const call = {
      ctx,
      task: ref,
      model: metric.judge.model,
      temperature: metric.judge.temperature,
      attempts: metric.maxAttempts,
      cache: spec.cache,
      overrides: spec.templateOverrides,
      benchmark: 'GoR pairwise',
      fail: (m: string) => new GorTaskError(m),
    };
    const ask = (answer1: string, answer2: string) =>
      askParsed(
        call,
        GOR_PAIRWISE_TEMPLATE,
        { query: meeting.globalQuery, answer1, answer2 },
        parsePairwiseVerdict,
      );
    const systemFirst = (await ask(mine, theirs)).value;
    const baselineFirst = (await ask(theirs, mine)).value;
    const wins = Object.fromEntries(
      GOR_CRITERIA.map((c) => [c, ((systemFirst[c] === 1 ? 1 : 0) + (baselineFirst[c] === 2 ? 1 : 0)) / 2]),
    ) as PairwiseResult['wins'];
    const result: PairwiseResult = {
      text: '',
      judged: true,
      wins,
      verdicts: { systemFirst, baselineFirst },
      judge: `model:${metric.judge.model}`,
    };
    return { result };
  },
};

// Both sides' task ids of one (system, meeting) pair.
export const pairwiseTaskIdsOf = (runId: string, system: string, documentId: string, index: number) =>
  (['system', 'baseline'] as const).map((side) => pairwiseTaskId(runId, system, documentId, index, side));
