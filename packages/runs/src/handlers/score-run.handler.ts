import { DocumentEntity, JudgmentEntity, MetricValueEntity, SummaryEntity } from '@precis/db';
import { booookScoreForSummary, type SummaryBooookScore, systemBooookScore } from '@precis/metrics';
import { CONFUSION_TYPES } from '@precis/prompts';
import { countTokens, novelNgramShare, repeatedNgramShare, splitSentences } from '@precis/text';
import { In } from 'typeorm';
import { metricValueId } from '../ids.js';
import type { RunContext } from '../planner/run-context.js';
import { runDocuments } from '../planner/run-documents.js';
import { type DimensionLeaderboard, scoreDimensionMetrics } from '../scoring/dimension-scores.js';
import type { LeaderboardRow, UsageTotals } from '../scoring/leaderboard-row.js';
import { upsertMetricValues } from '../scoring/metric-values.js';
import { type BenchmarkSpec, isBooookScoreMetric, isGeneratedSystem } from '../spec/benchmark-spec.schema.js';

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
     GROUP BY 1, 2, 3`,
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
  const docIds = [...new Set(summaries.map((s) => s.documentId))];
  const docs = new Map(
    (docIds.length ? await ctx.db.getRepository(DocumentEntity).find({ where: { id: In(docIds) } }) : []).map(
      (d) => [d.id, d],
    ),
  );
  const judgments = await ctx.db.getRepository(JudgmentEntity).find({ where: { runId } });
  const usage = await usageBySystem(ctx, runId);
  const leaderboard: LeaderboardRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];

  // Documents a system failed to summarize count as failures in its row, like failed judgments.
  const expected = (await runDocuments(ctx, spec)).length;
  for (const system of spec.systems.filter(isGeneratedSystem)) {
    const own = summaries.filter((s) => s.system === system.name);
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
      const scored: SummaryBooookScore[] = [];
      let incomplete = expected - own.length;
      let judge = '';
      let judgeTemplate: string | null = null;
      for (const s of own) {
        const n = splitSentences(s.text).length;
        const js = judgments
          .filter((j) => j.summaryId === s.id && j.metric === key)
          .sort((a, b) => a.unit - b.unit);
        if (js.length) {
          judge = js[0]!.judge;
          judgeTemplate = js[0]!.templateVersion;
        }
        // An empty summary or a failed judgment is an explicit failure: the summary is left out
        // and counted, never scored as clean.
        if (n === 0 || js.length !== n || js.some((j) => j.status !== 'ok')) {
          incomplete++;
          continue;
        }
        const summaryScore = booookScoreForSummary(
          js.map((j) => j.verdict as { confusing: boolean; types: string[] }),
        );
        scored.push(summaryScore);
        values.push({
          id: metricValueId(runId, system.name, s.documentId, key),
          runId,
          system: system.name,
          documentId: s.documentId,
          metric: key,
          value: Number.isNaN(summaryScore.score) ? null : summaryScore.score,
          details: { sentences: n, confusing: summaryScore.confusingSentences },
          producedBy: judge,
        });
      }
      const agg = systemBooookScore(scored, {
        resamples: spec.bootstrap.resamples,
        seed: spec.seed,
        knownTypes: CONFUSION_TYPES,
      });
      const defined = agg.summaries > 0;
      const row: LeaderboardRow = {
        system: system.name,
        strategy: system.strategy,
        summarizer: system.model !== undefined ? `model:${system.model}` : `engine:${system.engine}`,
        metric: 'BooookScore',
        judge: judge.startsWith('engine:') ? `${judge}${HEURISTIC_LABEL}` : judge,
        judgeTemplate,
        score: defined ? agg.mean : null,
        bootstrapStd: defined ? agg.bootstrapStd : null,
        ci95: defined ? [agg.ci[0], agg.ci[1]] : null,
        summaries: agg.summaries,
        incomplete,
        sentences: scored.reduce((a, x) => a + x.sentences, 0),
        errorTypes: agg.errorTypeDistribution,
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
  const summarizers = new Map(summaries.map((s) => [s.system, s.producer]));
  const dimensions = await scoreDimensionMetrics(ctx, runId, spec, summarizers);
  return dimensions.length ? { leaderboard, dimensions } : { leaderboard };
}
