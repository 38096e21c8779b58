import { OutputParseError } from '@precis/prompts';
import { aggregateScoreSamples } from '../prompts/aggregate.js';
import {
  logprobWeightedScore,
  scoreTokenTopLogprobs,
  type TokenWithTopLogprobs,
} from '../prompts/logprob-score.js';
import { parseScore } from '../prompts/score.parser.js';

// One judge sample as the model returned it.
export interface JudgeSample {
  text: string;
  // Token logprobs of the reply, when they were requested and the endpoint returned them.
  logprobs?: readonly TokenWithTopLogprobs[];
}

export interface DimensionScore {
  // The reported score: the mean of the parsed scores, or with `logprobs` the mean of the
  // per-sample logprob-weighted scores. null = explicit failure (never a default score).
  value: number | null;
  method: 'sample-mean' | 'logprob-weighted';
  n: number;
  parsed: number;
  unparsed: number;
  // Parsed score -> samples that gave it.
  distribution: Record<string, number>;
  // Mean of the parsed scores (reported beside the logprob-weighted value too).
  sampleMean: number | null;
  // Parse errors of the unparsed samples, in sample order.
  errors: string[];
  // Logprob variant only: samples that yielded a weighted score, and why the others did not.
  logprob?: { scored: number; failures: string[]; meanValidMass: number | null };
  // Why value is null.
  failure: string | null;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

// n-sample scoring (METHODS.md §4.2): score = Σ p(s)·s over the parsed samples, unparsed ones
// counted; with logprobs, each sample's score token distribution gives Σ p(s)·s instead.
export function scoreJudgeSamples(
  samples: readonly JudgeSample[],
  opts: { templateId: string; logprobs: boolean },
): DimensionScore {
  const agg = aggregateScoreSamples(
    samples.map((s) => s.text),
    (o) => parseScore(o, { templateId: opts.templateId }),
  );
  const base = {
    n: agg.n,
    parsed: agg.parsed.length,
    unparsed: agg.unparsed,
    distribution: agg.distribution,
    sampleMean: agg.score,
    errors: agg.errors,
  };
  if (!opts.logprobs) {
    return {
      ...base,
      value: agg.score,
      method: 'sample-mean',
      failure: agg.score === null ? `none of the ${agg.n} samples had a parseable <score>` : null,
    };
  }
  const weighted: number[] = [];
  const masses: number[] = [];
  const failures: string[] = [];
  samples.forEach((s, k) => {
    if (!s.logprobs || s.logprobs.length === 0) {
      failures.push(`sample ${k}: the endpoint returned no logprobs`);
      return;
    }
    try {
      const w = logprobWeightedScore(scoreTokenTopLogprobs(s.logprobs, opts.templateId), opts.templateId);
      weighted.push(w.score);
      masses.push(w.validMass);
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      failures.push(`sample ${k}: ${err.message}`);
    }
  });
  const value = mean(weighted);
  return {
    ...base,
    value,
    method: 'logprob-weighted',
    logprob: { scored: weighted.length, failures, meanValidMass: mean(masses) },
    failure:
      value === null
        ? `no logprob-weighted score in ${samples.length} samples (${failures[0] ?? 'no samples'})`
        : null,
  };
}
