import { RougeScorer } from '@precis/metrics';
import type { OpinionDimensionId } from '@precis/prompts';
import { MetaInputError } from './errors.js';
import { type OpinionProduct, summaryKey, systemsOf } from './opinion-dataset.js';

// Scores of one metric or judge for the summaries of a dataset, keyed by summaryKey(product id,
// system); a number applies to every dimension (ROUGE), a record gives one score per dimension.
export interface MetricScores {
  // What produced the numbers: metric and settings, or judge and template version.
  producedBy: string;
  scores: Map<string, number | Partial<Record<OpinionDimensionId, number>>>;
  // Judgments that failed (failedKey): a failed verdict, or a judge task that failed or died.
  failed?: ReadonlySet<string>;
}

export const failedKey = (key: string, dim: OpinionDimensionId) => `${key}\u0000${dim}`;

export function scoreFor(m: MetricScores, key: string, dim: OpinionDimensionId): number | undefined {
  const v = m.scores.get(key);
  if (v === undefined) return undefined;
  return typeof v === 'number' ? v : v[dim];
}

export const ROUGE_METRICS = ['rouge-1', 'rouge-2', 'rouge-l'] as const;
export type RougeMetricName = (typeof ROUGE_METRICS)[number];

const ROUGE_TYPE = { 'rouge-1': 'rouge1', 'rouge-2': 'rouge2', 'rouge-l': 'rougeL' } as const;

export interface RougeScoresOptions {
  reference: string;
  // Porter stemming as in rouge-score's use_stemmer=True (our default).
  stem?: boolean;
}

// ROUGE F1 of every summary against the reference system's summary of the same product. The
// reference's own summary is scored too (F1 = 1) and stays in the correlation.
export function rougeScores(
  products: readonly OpinionProduct[],
  metric: RougeMetricName,
  opts: RougeScoresOptions,
): MetricScores {
  const stem = opts.stem ?? true;
  const type = ROUGE_TYPE[metric];
  const scorer = new RougeScorer({ types: [type], useStemmer: stem });
  const scores = new Map<string, number>();
  for (const p of products) {
    const ref = p.summaries.find((s) => s.system === opts.reference);
    if (!ref) {
      throw new MetaInputError(
        `product ${p.id} has no summary by the reference system "${opts.reference}"; systems: ${systemsOf([p]).join(', ')}`,
        { field: 'reference' },
      );
    }
    for (const s of p.summaries) {
      scores.set(summaryKey(p.id, s.system), scorer.score(ref.summary, s.summary)[type]!.fmeasure);
    }
  }
  return {
    producedBy: `${metric.toUpperCase()} F1 (rouge-score semantics: lower-case, non-alphanumeric split, Porter stemming ${stem ? 'on' : 'off'}; reference system "${opts.reference}")`,
    scores,
  };
}
