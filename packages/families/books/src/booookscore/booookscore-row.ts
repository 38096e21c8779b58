import { describeWork, isComplete, type RowWork } from '@precis/engine/family';
import { splitSentences } from '@precis/text';
import { booookScoreForSummary, type SummaryBooookScore, systemBooookScore } from '../metrics/booookscore.js';
import { CONFUSION_TYPES } from '../prompts/confusion-types.js';

export interface JudgedSummary {
  id: string;
  documentId: string;
  // Position of the document in the run (spec datasets in order, then ordinal).
  order: number;
  text: string;
}

export interface StoredJudgment {
  unit: number;
  status: string;
  judge: string;
  templateVersion: string | null;
  verdict: unknown;
}

export interface BooookScoreOutcome {
  judgeTemplate: string | null;
  score: number | null;
  bootstrapStd: number | null;
  ci95: [number, number] | null;
  summaries: number;
  sentences: number;
  errorTypes: Record<string, number>;
  work: RowWork;
  status: string;
  // Per-summary scores of the summaries whose every sentence was judged.
  perSummary: { documentId: string; score: number | null; sentences: number; confusing: number }[];
}

// One system's BooookScore for one metric. Summaries are taken in run order whatever order they
// arrive in; a failed or missing judgment makes the row incomplete, and an incomplete row gets
// no score (the per-summary scores of what was judged are still returned).
export function scoreBooookScoreSystem(
  summaries: readonly JudgedSummary[],
  judgmentsOf: (summaryId: string) => readonly StoredJudgment[],
  opts: { expectedDocuments: number; resamples: number; seed: number | string },
): BooookScoreOutcome {
  const work: RowWork = {
    summaries: { expected: opts.expectedDocuments, failed: opts.expectedDocuments - summaries.length },
    judgments: { expected: 0, failed: 0 },
  };
  const scored: SummaryBooookScore[] = [];
  const perSummary: BooookScoreOutcome['perSummary'] = [];
  let judgeTemplate: string | null = null;
  for (const s of [...summaries].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))) {
    const n = splitSentences(s.text).length;
    // An empty summary is a failed summary: nothing in it can be judged.
    if (n === 0) {
      work.summaries.failed++;
      continue;
    }
    const js = [...judgmentsOf(s.id)].sort((a, b) => a.unit - b.unit);
    judgeTemplate ??= js.find((j) => j.templateVersion !== null)?.templateVersion ?? null;
    const ok = js.filter((j) => j.status === 'ok' && j.unit >= 1 && j.unit <= n);
    work.judgments.expected += n;
    work.judgments.failed += n - ok.length;
    if (ok.length !== n) continue;
    const score = booookScoreForSummary(ok.map((j) => j.verdict as { confusing: boolean; types: string[] }));
    scored.push(score);
    perSummary.push({
      documentId: s.documentId,
      score: Number.isNaN(score.score) ? null : score.score,
      sentences: n,
      confusing: score.confusingSentences,
    });
  }
  const agg = systemBooookScore(scored, {
    resamples: opts.resamples,
    seed: opts.seed,
    knownTypes: CONFUSION_TYPES,
  });
  const defined = agg.summaries > 0 && isComplete(work);
  return {
    judgeTemplate,
    score: defined ? agg.mean : null,
    bootstrapStd: defined ? agg.bootstrapStd : null,
    ci95: defined ? [agg.ci[0], agg.ci[1]] : null,
    summaries: agg.summaries,
    sentences: scored.reduce((a, x) => a + x.sentences, 0),
    errorTypes: agg.errorTypeDistribution,
    work,
    status: describeWork(work),
    perSummary,
  };
}
