import { type AnyMetricSpec, type BenchmarkSpec, int, name } from '@precis/engine/family';
import { OPINION_DIMENSION_IDS } from '@precis/prompts';
import { z } from 'zod';

// LLM judges of the seven opinion-summary dimensions (METHODS.md §4.2), n-sample scoring.
export const dimensionsMetricSpec = z
  .object({
    name: z.literal('dimensions'),
    family: z.enum(['op-i', 'op', 'g-eval']),
    dimensions: z
      .array(z.enum(OPINION_DIMENSION_IDS))
      .min(1)
      .default([...OPINION_DIMENSION_IDS]),
    judge: z.object({ model: z.string().min(1) }).strict(),
    samples: int().min(1).max(100).default(1),
    // Default 0 for one sample, 0.7 for several (judgeTemperature()).
    temperature: z.number().min(0).max(2).optional(),
    // Logprob-weighted score at the score token (the endpoint must return logprobs).
    logprobs: z.boolean().default(false),
    // Attempts for G-Eval's evaluation steps; score samples are never re-asked (they are counted).
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();

export type DimensionsMetricSpec = z.output<typeof dimensionsMetricSpec>;

export const isDimensionsMetric = (m: AnyMetricSpec): m is DimensionsMetricSpec => m.name === 'dimensions';

export const judgeTemperature = (m: DimensionsMetricSpec): number =>
  m.temperature ?? (m.samples === 1 ? 0 : 0.7);

// Alternatives per token a logprob-weighted score asks for; G-Eval's steps are written at 0.
export const TOP_LOGPROBS = 5;
export const GEVAL_STEPS_TEMPERATURE = 0;

// Summaries already in the dataset (SummEval-OP's rated candidates): expands to one system per
// candidate system in the data, named as in the dataset (e.g. gpt-4, human-summaries).
export const datasetSystemSpec = z
  .object({
    name,
    source: z.literal('dataset'),
    // Only these dataset systems (default: every system found in the data).
    only: z.array(z.string().min(1)).min(1).optional(),
    strategy: z.literal('dataset').default('dataset'),
    model: z.undefined().optional(),
    engine: z.undefined().optional(),
  })
  .strict();

export type DatasetSystemSpec = z.output<typeof datasetSystemSpec>;

// Judge rows are keyed 'dimension:<id>' per run (what `meta correlate judge:<run>` reads).
export function checkOneDimensionsMetric(
  spec: BenchmarkSpec,
): { path: (string | number)[]; message: string }[] {
  const dims = spec.metrics.flatMap((m, i) => (m.name === 'dimensions' ? [i] : []));
  return dims.slice(1).map((i) => ({
    path: ['metrics', i, 'name'],
    message: `only one "dimensions" metric per run (also metrics[${dims[0]}]); compare judges with one run each`,
  }));
}
