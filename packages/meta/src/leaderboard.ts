import { mean } from '@precis/metrics';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import { type CorrelationReport, correlateScores } from './correlate.js';
import { failedKey, type MetricScores, scoreFor } from './metric-scores.js';
import { type OpinionProduct, summaryKey, systemsOf } from './opinion-dataset.js';

export type ScoreColumns = Record<OpinionDimensionId | 'overall', number | null>;

export interface LeaderboardJudge {
  // Column label, e.g. "judge:op-i-mistral".
  label: string;
  scores: MetricScores;
}

export interface LeaderboardEntry {
  rank: number;
  system: string;
  summaries: number;
  human: ScoreColumns;
  // A judge's mean over the summaries it judged; null for a dimension where any judgment of
  // this system's summaries failed (never a mean over only what survived).
  judges: Record<string, ScoreColumns>;
  // Per judge, the failed judgments of this system's summaries by dimension (failures only).
  judgeFailed: Record<string, Partial<Record<OpinionDimensionId, number>>>;
}

export interface HumanLeaderboard {
  dataset: string;
  // Ranked by the overall human rating (mean of the seven dimension means), best first.
  entries: LeaderboardEntry[];
  judges: {
    label: string;
    producedBy: string;
    // Summary-level correlation of the judge with the human ratings.
    correlation: CorrelationReport['dimensions'];
  }[];
  producedBy: string;
}

function columns(values: (dim: OpinionDimensionId) => number[]): ScoreColumns {
  const out = {} as ScoreColumns;
  const means: number[] = [];
  for (const dim of OPINION_DIMENSION_IDS) {
    const v = values(dim);
    out[dim] = v.length ? mean(v) : null;
    if (out[dim] !== null) means.push(out[dim]!);
  }
  out.overall = means.length === OPINION_DIMENSION_IDS.length ? mean(means) : null;
  return out;
}

export function humanLeaderboard(
  dataset: string,
  products: readonly OpinionProduct[],
  judges: readonly LeaderboardJudge[] = [],
): HumanLeaderboard {
  const entries: LeaderboardEntry[] = systemsOf(products).map((system) => {
    const mine = products.flatMap((p) =>
      p.summaries.filter((s) => s.system === system).map((s) => ({ key: summaryKey(p.id, system), s })),
    );
    const human = columns((dim) =>
      mine.flatMap(({ s }) => (s.ratings[dim] !== undefined ? [s.ratings[dim]!] : [])),
    );
    const judgeCols: Record<string, ScoreColumns> = {};
    const judgeFailed: LeaderboardEntry['judgeFailed'] = {};
    for (const j of judges) {
      const failed: Partial<Record<OpinionDimensionId, number>> = {};
      for (const dim of OPINION_DIMENSION_IDS) {
        const n = mine.filter(({ key }) => j.scores.failed?.has(failedKey(key, dim))).length;
        if (n) failed[dim] = n;
      }
      judgeFailed[j.label] = failed;
      judgeCols[j.label] = columns((dim) =>
        failed[dim]
          ? []
          : mine.flatMap(({ key }) => {
              const v = scoreFor(j.scores, key, dim);
              return v === undefined ? [] : [v];
            }),
      );
    }
    return { rank: 0, system, summaries: mine.length, human, judges: judgeCols, judgeFailed };
  });
  entries.sort(
    (x, y) =>
      (y.human.overall ?? -Infinity) - (x.human.overall ?? -Infinity) || x.system.localeCompare(y.system),
  );
  entries.forEach((e, i) => {
    e.rank = i + 1;
  });
  return {
    dataset,
    entries,
    judges: judges.map((j) => ({
      label: j.label,
      producedBy: j.scores.producedBy,
      correlation: correlateScores(products, j.scores, 'summary').dimensions,
    })),
    producedBy:
      'human: mean of the per-summary mean human ratings (1-5) over the products; overall = mean of the seven dimension means',
  };
}
