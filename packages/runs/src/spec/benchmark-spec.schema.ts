import { z } from 'zod';

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isInteger(input)) return `number ${input}`;
  return typeof input;
}

// An integer field whose errors say "expected integer" whatever the input was.
const int = () =>
  z.int({
    error: (iss) =>
      iss.input === undefined
        ? 'required (expected integer)'
        : `expected integer, received ${received(iss.input)}`,
  });

const name = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-" (no spaces)');

const datasetSpec = z
  .object({
    // The Precis dataset name; when `path` is given it is imported first (a no-op if unchanged).
    name,
    kind: z.enum(['kgds', 'summeval-op', 'text', 'jsonl']).optional(),
    path: z.string().min(1).optional(),
    // Only these document external ids, or only the first `limit` documents.
    documents: z.array(z.string().min(1)).min(1).optional(),
    limit: int().positive().optional(),
  })
  .strict()
  .refine((d) => d.path === undefined || d.kind !== undefined, {
    message: 'a dataset with a path needs its kind (kgds, summeval-op, text or jsonl)',
    path: ['kind'],
  });

export const strategyParamsSpec = z
  .object({
    chunkSize: int().min(16).default(2048),
    contextWindow: int().min(256).optional(),
    levelBudgets: z.array(int().positive()).min(1).default([500]),
    runningBudget: int().positive().default(900),
    temperature: z.number().min(0).max(2).default(0.5),
    topP: z.number().gt(0).max(1).default(1),
    compressionTemperature: z.number().min(0).max(2).default(1),
    maxRegenerations: int().min(0).max(10).default(3),
    artifactRemoval: z.boolean().default(false),
    encoding: z.enum(['cl100k_base', 'o200k_base']).default('cl100k_base'),
    maxTokens: int().positive().optional(),
  })
  .strict();

const systemSpec = z
  .object({
    name,
    strategy: z.enum(['hierarchical', 'incremental', 'full-context']),
    // Exactly one of: a model from the registry, or an offline engine.
    model: z.string().min(1).optional(),
    engine: z.enum(['textrank', 'lead']).optional(),
    params: strategyParamsSpec.default(strategyParamsSpec.parse({})),
  })
  .strict()
  .refine((s) => (s.model === undefined) !== (s.engine === undefined), {
    message: 'give exactly one of "model" (a registry model) or "engine" (textrank or lead)',
  });

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

const metricSpec = z
  .object({
    name: z.enum(['booookscore']),
    judge: judgeSpec,
    mode: z.enum(['batched', 'sentence']).default('batched'),
    batchSize: int().min(1).max(100).default(10),
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();

export const benchmarkSpecSchema = z
  .object({
    name,
    description: z.string().optional(),
    seed: int().default(1),
    // Model registry file (relative to the spec); else PRECIS_MODELS or ./precis.models.yaml.
    models: z.string().min(1).optional(),
    datasets: z.array(datasetSpec).min(1),
    systems: z.array(systemSpec).min(1),
    metrics: z.array(metricSpec).min(1),
    limits: z
      .object({
        concurrency: int().min(1).max(1024).default(16),
        costUsd: z.number().positive().optional(),
      })
      .strict()
      .default({ concurrency: 16 }),
    cache: z.boolean().default(true),
    bootstrap: z
      .object({ resamples: int().min(100).max(100000).default(1000) })
      .strict()
      .default({ resamples: 1000 }),
  })
  .strict()
  .superRefine((spec, ctx) => {
    const seen = new Map<string, number>();
    spec.systems.forEach((s, i) => {
      const first = seen.get(s.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['systems', i, 'name'],
          message: `duplicate system name "${s.name}" (also systems[${first}])`,
        });
      }
      seen.set(s.name, i);
    });
  });

export type BenchmarkSpec = z.output<typeof benchmarkSpecSchema>;
export type SystemSpec = BenchmarkSpec['systems'][number];
export type MetricSpec = BenchmarkSpec['metrics'][number];
export type DatasetSpec = BenchmarkSpec['datasets'][number];
