import { DocumentEntity, JudgmentEntity, type MetricValueEntity, type SummaryEntity } from '@precis/db';
import {
  type BenchmarkSpec,
  isGeneratedSystem,
  metricValueId,
  producerOf,
  type RunContext,
  type ScoringInput,
  type SystemSpec,
  upsertMetricValues,
} from '@precis/engine/family';
import { countTokens, novelNgramShare, repeatedNgramShare } from '@precis/text';
import { In } from 'typeorm';
import { booksUsageRows } from '../store.js';
import { booksParamsOf } from '../summarize/books-params.js';
import { HEURISTIC_JUDGE } from './annotate-coherence.handler.js';
import { scoreBooookScoreSystem } from './booookscore-row.js';
import { type BooookScoreMetricSpec, isBooookScoreMetric } from './booookscore-spec.js';
import type { LeaderboardRow, UsageTotals } from './leaderboard-row.js';

const HEURISTIC_LABEL = ' (heuristic)';
// BooookScore is stored and shown in percent (as the paper reports it); the row keeps the share.
const percent = (share: number | null) => (share === null ? null : 100 * share);

async function usageBySystem(ctx: RunContext, runId: string): Promise<Map<string, UsageTotals>> {
  const rows = await booksUsageRows(ctx.db, runId);
  const out = new Map<string, UsageTotals>();
  for (const r of rows) {
    out.set(r.stage === 'verify' ? `verify:${r.system}:${r.metric}` : `summarize:${r.system}`, {
      calls: Number(r.calls),
      tokensIn: Number(r.tin),
      tokensOut: Number(r.tout),
      tokensCached: Number(r.tcached),
      tokensReasoning: Number(r.treasoning),
      costUsd: Number(r.cost),
    });
  }
  return out;
}

const zeroUsage = (): UsageTotals => ({
  calls: 0,
  tokensIn: 0,
  tokensOut: 0,
  tokensCached: 0,
  tokensReasoning: 0,
  costUsd: 0,
});
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

// The label of a BooookScore metric's judge, from the spec: known even when no judgment exists.
function judgeLabel(metric: BooookScoreMetricSpec): string {
  return metric.judge.engine === 'heuristic'
    ? `${HEURISTIC_JUDGE}${HEURISTIC_LABEL}`
    : `model:${metric.judge.model}`;
}

interface ScoringInputs {
  // The run's summaries, each with its document's position in the run.
  summaries: (SummaryEntity & { order: number })[];
  runDocuments: number;
  sources: Map<string, string>;
  judgments: Map<string, JudgmentEntity[]>;
  usage: Map<string, UsageTotals>;
}

async function loadScoringInputs(ctx: RunContext, input: ScoringInput): Promise<ScoringInputs> {
  const { runId, summaries } = input;
  const docIds = [...new Set(summaries.map((s) => s.documentId))];
  const docs = docIds.length
    ? await ctx.db.getRepository(DocumentEntity).find({ where: { id: In(docIds) } })
    : [];
  const judgments = new Map<string, JudgmentEntity[]>();
  for (const j of await ctx.db
    .getRepository(JudgmentEntity)
    .find({ where: { runId }, order: { id: 'ASC' } })) {
    const key = `${j.summaryId}\u0000${j.metric}`;
    judgments.set(key, [...(judgments.get(key) ?? []), j]);
  }
  return {
    summaries,
    runDocuments: input.runDocuments,
    sources: new Map(docs.map((d) => [d.id, d.text])),
    judgments,
    usage: await usageBySystem(ctx, runId),
  };
}

// One generated system's BooookScore rows (one per BooookScore metric) and their metric values.
function systemRows(
  runId: string,
  spec: BenchmarkSpec,
  system: SystemSpec,
  inputs: ScoringInputs,
): { rows: LeaderboardRow[]; values: Partial<MetricValueEntity>[] } {
  const own = inputs.summaries.filter((s) => s.system === system.name);
  const stats = own.map((s) => ({
    tokens: countTokens(s.text, booksParamsOf(system).encoding),
    novel: 100 * novelNgramShare(s.text, inputs.sources.get(s.documentId) ?? '', 3),
    repeated: 100 * repeatedNgramShare(s.text, 3),
  }));
  const rows: LeaderboardRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  spec.metrics.forEach((metric, metricIndex) => {
    if (!isBooookScoreMetric(metric)) return;
    const key = `${metric.name}.${metricIndex}`;
    const judge = judgeLabel(metric);
    const { perSummary, ...scored } = scoreBooookScoreSystem(
      own,
      (id) => inputs.judgments.get(`${id}\u0000${key}`) ?? [],
      { expectedDocuments: inputs.runDocuments, resamples: spec.bootstrap.resamples, seed: spec.seed },
    );
    const value = (documentId: string | null, v: number | null, details: Record<string, unknown>) => ({
      id: metricValueId(runId, system.name, documentId, key),
      runId,
      system: system.name,
      documentId,
      metric: key,
      value: v,
      details,
      producedBy: judge,
    });
    for (const p of perSummary)
      values.push(value(p.documentId, percent(p.score), { sentences: p.sentences, confusing: p.confusing }));
    const row: LeaderboardRow = {
      system: system.name,
      strategy: system.strategy,
      summarizer: producerOf(system),
      metric: 'BooookScore',
      judge,
      ...scored,
      lengthTokens: mean(stats.map((x) => x.tokens)),
      novelTrigramsPct: mean(stats.map((x) => x.novel)),
      repeatedTrigramsPct: mean(stats.map((x) => x.repeated)),
      summarizerUsage: inputs.usage.get(`summarize:${system.name}`) ?? zeroUsage(),
      judgeUsage: inputs.usage.get(`verify:${system.name}:${key}`) ?? zeroUsage(),
    };
    rows.push(row);
    values.push(value(null, percent(row.score), { ...row }));
  });
  return { rows, values };
}

// BooookScore per summary and per system with bootstrap std and 95% CI, the error-type
// distribution, summary statistics, and tokens/cost with summarizer and judge counted apart.
export async function scoreBooookScore(
  ctx: RunContext,
  input: ScoringInput,
): Promise<{ leaderboard: LeaderboardRow[] }> {
  // Every family scores every run: a run without BooookScore reads nothing (a KGDS run's 11,389
  // judgments and every summary's n-gram statistics took 0.24 ms of CPU per verify task).
  if (!input.spec.metrics.some(isBooookScoreMetric)) return { leaderboard: [] };
  const inputs = await loadScoringInputs(ctx, input);
  const leaderboard: LeaderboardRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  for (const system of input.spec.systems.filter(isGeneratedSystem)) {
    const own = systemRows(input.runId, input.spec, system, inputs);
    leaderboard.push(...own.rows);
    values.push(...own.values);
  }
  await upsertMetricValues(ctx.db, values);
  return { leaderboard };
}
