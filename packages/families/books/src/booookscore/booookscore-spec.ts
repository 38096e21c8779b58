import { type AnyMetricSpec, int } from '@precis/engine/family';
import { z } from 'zod';

const judgeSpec = z
  .object({
    model: z.string().min(1).optional(),
    engine: z.enum(['heuristic']).optional(),
    temperature: z.number().min(0).max(2).default(0),
  })
  .strict()
  .refine((j) => (j.model === undefined) !== (j.engine === undefined), {
    message: 'give exactly one of "model" (a registry model) or "engine" (heuristic)',
  });

// BooookScore (METHODS.md): a judge marks each summary sentence confusing or not.
export const booookScoreMetricSpec = z
  .object({
    name: z.literal('booookscore'),
    judge: judgeSpec,
    mode: z.enum(['batched', 'sentence']).default('batched'),
    batchSize: int().min(1).max(100).default(10),
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();

export type BooookScoreMetricSpec = z.output<typeof booookScoreMetricSpec>;

export const isBooookScoreMetric = (m: AnyMetricSpec): m is BooookScoreMetricSpec => m.name === 'booookscore';
