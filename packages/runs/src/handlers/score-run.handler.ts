import { DocumentEntity, JudgmentEntity, MetricValueEntity, SummaryEntity } from '@precis/db';
import { countTokens, novelNgramShare, repeatedNgramShare } from '@precis/text';
import { In } from 'typeorm';
import { metricValueId } from '../ids.js';
import { runDocuments } from '../planner/advance-run.usecase.js';
import type { RunContext } from '../planner/run-context.js';
import { scoreBooookScoreSystem } from '../scoring/booookscore-row.js';
import { type DimensionLeaderboard, scoreDimensionMetrics } from '../scoring/dimension-scores.js';
import type { LeaderboardRow, UsageTotals } from '../scoring/leaderboard-row.js';
import { upsertMetricValues } from '../scoring/metric-values.js';
import {
  type BenchmarkSpec,
  isBooookScoreMetric,
  isGeneratedSystem,
  type MetricSpec,
} from '../spec/benchmark-spec.schema.js';
import { HEURISTIC_JUDGE } from './annotate-coherence.handler.js';

const HEURISTIC_LABEL = ' (heuristic)';

async function usageBySystem(ctx: RunContext, runId: string): Promise<Map<string, UsageTotals>> {
  const rows: {
    stage: string;
    system: string;
    metric: string;
    calls: unknown;
    hits: unknown;
    tin: unknown;
    tout: unknown;
    cost: unknown;
  }[] = await ctx.db.query(
    // Summarizer calls per system; judge calls per system and BooookScore metric (the task's
    // kind keeps other judges, e.g. dimension judges, out of these rows).
    `SELECT t.stage AS stage, split_part(c.task_id, ':', 3) AS system,
            CASE WHEN t.kind = 'booookscore-batch' THEN split_part(c.task_id, ':', 5) ELSE '' END AS metric,
            SUM(c.calls) AS calls, SUM(CASE WHEN c.cache_hit THEN c.calls ELSE 0 END) AS hits,
            COALESCE(SUM(c.tokens_in), 0) AS tin, COALESCE(SUM(c.tokens_out), 0) AS tout, COALESCE(SUM(c.cost_usd), 0) AS cost
     FROM llm_calls c JOIN tasks t ON t.id = c.task_id
     WHERE c.run_id = $1 AND (t.stage = 'summarize' OR t.kind = 'booookscore-batch')
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [runId],
  );
  const out = new Map<string, UsageTotals>();
  for (const r of rows) {
    out.set(r.stage === 'verify' ? `verify:${r.system}:${r.metric}` : `summarize:${r.system}`, {
      calls: Number(r.calls),
      cacheHits: Number(r.hits),
      tokensIn: Number(r.tin),
      tokensOut: Number(r.tout),
      costUsd: Number(r.cost),
    });
  }
  return out;
}

const zeroUsage = (): UsageTotals => ({ calls: 0, cacheHits: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

// The label of a BooookScore metric's judge, from the spec: known even when no judgment exists.
function judgeLabel(metric: MetricSpec): string {
  return metric.judge.engine === 'heuristic'
    ? `${HEURISTIC_JUDGE}${HEURISTIC_LABEL}`
    : `model:${metric.judge.model}`;
}

// BooookScore per summary and per system with bootstrap std and 95% CI, the error-type
// distribution, summary statistics, and tokens/cost with summarizer and judge counted apart.
export async function scoreRun(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
): Promise<{ leaderboard: LeaderboardRow[]; dimensions?: DimensionLeaderboard[] }> {
  const summaries = await ctx.db
    .getRepository(SummaryEntity)
    .find({ where: { runId }, order: { id: 'ASC' } });
  // Values reach every mean and bootstrap in run order (spec datasets, then ordinal), never in
  // database order: the same spec and seed give the same report.
  const runDocs = await runDocuments(ctx, spec);
  const order = new Map(runDocs.map((d, i) => [d.id, i]));
  const docIds = [...new Set(summaries.map((s) => s.documentId))];
  const docs = new Map(
    (docIds.length ? await ctx.db.getRepository(DocumentEntity).find({ where: { id: In(docIds) } }) : []).map(
      (d) => [d.id, d],
    ),
  );
  const judgments = new Map<string, JudgmentEntity[]>();
  for (const j of await ctx.db
    .getRepository(JudgmentEntity)
    .find({ where: { runId }, order: { id: 'ASC' } })) {
    const key = `${j.summaryId}\u0000${j.metric}`;
    judgments.set(key, [...(judgments.get(key) ?? []), j]);
  }
  const usage = await usageBySystem(ctx, runId);
  const leaderboard: LeaderboardRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];

  for (const system of spec.systems.filter(isGeneratedSystem)) {
    const own = summaries
      .filter((s) => s.system === system.name)
      .map((s) => ({ ...s, order: order.get(s.documentId) ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
    const encoding = system.params.encoding;
    const stats = own.map((s) => {
      const source = docs.get(s.documentId)?.text ?? '';
      return {
        tokens: countTokens(s.text, encoding),
        novel: 100 * novelNgramShare(s.text, source, 3),
        repeated: 100 * repeatedNgramShare(s.text, 3),
      };
    });
    spec.metrics.forEach((metric, metricIndex) => {
      if (!isBooookScoreMetric(metric)) return;
      const key = `${metric.name}.${metricIndex}`;
      const judge = judgeLabel(metric);
      const outcome = scoreBooookScoreSystem(own, (id) => judgments.get(`${id}\u0000${key}`) ?? [], {
        expectedDocuments: runDocs.length,
        resamples: spec.bootstrap.resamples,
        seed: spec.seed,
      });
      for (const p of outcome.perSummary)
        values.push({
          id: metricValueId(runId, system.name, p.documentId, key),
          runId,
          system: system.name,
          documentId: p.documentId,
          metric: key,
          value: p.score,
          details: { sentences: p.sentences, confusing: p.confusing },
          producedBy: judge,
        });
      const { perSummary: _, ...scored } = outcome;
      const row: LeaderboardRow = {
        system: system.name,
        strategy: system.strategy,
        summarizer: system.model !== undefined ? `model:${system.model}` : `engine:${system.engine}`,
        metric: 'BooookScore',
        judge,
        ...scored,
        lengthTokens: mean(stats.map((x) => x.tokens)),
        novelTrigramsPct: mean(stats.map((x) => x.novel)),
        repeatedTrigramsPct: mean(stats.map((x) => x.repeated)),
        summarizerUsage: usage.get(`summarize:${system.name}`) ?? zeroUsage(),
        judgeUsage: usage.get(`verify:${system.name}:${key}`) ?? zeroUsage(),
      };
      leaderboard.push(row);
      values.push({
        id: metricValueId(runId, system.name, null, key),
        runId,
        system: system.name,
        documentId: null,
        metric: key,
        value: row.score,
        details: { ...row },
        producedBy: row.judge,
      });
    });
  }
  await upsertMetricValues(ctx.db, values);
  // Dimension judges (opinion summaries): their own leaderboard, one per dimensions metric.
  const judged = summaries.map((s) => ({
    system: s.system,
    documentId: s.documentId,
    producer: s.producer,
    order: order.get(s.documentId) ?? Number.MAX_SAFE_INTEGER,
  }));
  const dimensions = await scoreDimensionMetrics(ctx, runId, spec, judged, runDocs.length);
  return dimensions.length ? { leaderboard, dimensions } : { leaderboard };
}
