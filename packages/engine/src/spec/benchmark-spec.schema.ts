import { OPINION_DIMENSION_IDS } from '@precis/prompts';
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

// Names of runs, datasets and systems: bounded, so no name can make a listing too large to send.
export const MAX_NAME_LENGTH = 100;

const name = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH, `at most ${MAX_NAME_LENGTH} characters`)
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
    // Strategy 'opinion': words of the one-paragraph summary (default 80; engines cut to it).
    budgetWords: int().positive().optional(),
  })
  .strict();

const systemSpec = z
  .object({
    name,
    source: z.undefined().optional(),
    strategy: z.enum(['hierarchical', 'incremental', 'full-context', 'opinion']),
    // Exactly one of: a model from the registry, or an offline engine.
    model: z.string().min(1).optional(),
    engine: z.enum(['textrank', 'lead']).optional(),
    params: strategyParamsSpec.default(strategyParamsSpec.parse({})),
  })
  .strict()
  .refine((s) => (s.model === undefined) !== (s.engine === undefined), {
    message: 'give exactly one of "model" (a registry model) or "engine" (textrank or lead)',
  });

// Summaries already in the dataset (SummEval-OP's rated candidates): expands to one system per
// candidate system in the data, named as in the dataset (e.g. gpt-4, human-summaries).
const datasetSystemSpec = z
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
    name: z.literal('booookscore'),
    judge: judgeSpec,
    mode: z.enum(['batched', 'sentence']).default('batched'),
    batchSize: int().min(1).max(100).default(10),
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();

// Tasks each stage works on at once (limits.concurrency). Model calls are limited separately, per
// endpoint (the registry's maxConcurrency), so this mostly bounds memory and database load: it
// must be high enough to keep an endpoint busy. With 16, a one-sample judge sweep kept 16 of a
// 128-slot endpoint's slots busy and ran at 9.6x the ideal time; with 128, 2.7x.
export const DEFAULT_STAGE_CONCURRENCY = 128;

// LLM judges of the seven opinion-summary dimensions (METHODS.md §4.2), n-sample scoring.
const dimensionsMetricSpec = z
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

export const benchmarkSpecSchema = z
  .object({
    name,
    description: z.string().optional(),
    seed: int().default(1),
    // Model registry file (relative to the spec); else PRECIS_MODELS or ./precis.models.yaml.
    models: z.string().min(1).optional(),
    datasets: z.array(datasetSpec).min(1),
    systems: z.array(z.discriminatedUnion('source', [systemSpec, datasetSystemSpec])).min(1),
    metrics: z.array(z.discriminatedUnion('name', [metricSpec, dimensionsMetricSpec])).min(1),
    limits: z
      .object({
        concurrency: int().min(1).max(1024).default(DEFAULT_STAGE_CONCURRENCY),
        costUsd: z.number().positive().optional(),
      })
      .strict()
      .default({ concurrency: DEFAULT_STAGE_CONCURRENCY }),
    cache: z.boolean().default(true),
    // Prompt overrides: a YAML/JSON file (relative to the spec) of { <template id>: { system?, user? } };
    // loading the spec reads it into templateOverrides, which is what a run stores and uses.
    templates: z.string().min(1).optional(),
    templateOverrides: z
      .record(
        z.string(),
        z.object({ system: z.string().min(1).optional(), user: z.string().min(1).optional() }).strict(),
      )
      .optional(),
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
    // Judge rows are keyed 'dimension:<id>' per run (what `meta correlate judge:<run>` reads).
    const dims = spec.metrics.flatMap((m, i) => (m.name === 'dimensions' ? [i] : []));
    for (const i of dims.slice(1)) {
      ctx.addIssue({
        code: 'custom',
        path: ['metrics', i, 'name'],
        message: `only one "dimensions" metric per run (also metrics[${dims[0]}]); compare judges with one run each`,
      });
    }
  });

export type BenchmarkSpec = z.output<typeof benchmarkSpecSchema>;
export type SystemSpec = z.output<typeof systemSpec>;
export type DatasetSystemSpec = z.output<typeof datasetSystemSpec>;
export type AnySystemSpec = BenchmarkSpec['systems'][number];
export type MetricSpec = z.output<typeof metricSpec>;
export type DimensionsMetricSpec = z.output<typeof dimensionsMetricSpec>;
export type AnyMetricSpec = BenchmarkSpec['metrics'][number];

export const isGeneratedSystem = (s: AnySystemSpec): s is SystemSpec => s.source === undefined;
export const isBooookScoreMetric = (m: AnyMetricSpec): m is MetricSpec => m.name === 'booookscore';
export const judgeTemperature = (m: DimensionsMetricSpec): number =>
  m.temperature ?? (m.samples === 1 ? 0 : 0.7);
export type DatasetSpec = BenchmarkSpec['datasets'][number];
