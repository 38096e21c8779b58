import { z } from 'zod';
import type { FamilyRegistry } from '../family/family-registry.js';
import { ConfigurationError } from '../handlers/templates.js';

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isInteger(input)) return `number ${input}`;
  return typeof input;
}

// An integer field whose errors say "expected integer" whatever the input was.
export const int = () =>
  z.int({
    error: (iss) =>
      iss.input === undefined
        ? 'required (expected integer)'
        : `expected integer, received ${received(iss.input)}`,
  });

// Names of runs, datasets and systems: bounded, so no name can make a listing too large to send.
export const MAX_NAME_LENGTH = 100;

export const name = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH, `at most ${MAX_NAME_LENGTH} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-" (no spaces)');

// "a, b or c": names as a spec error lists them.
function listed(names: readonly string[], last: 'or' | 'and'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

// A dataset entry; `kinds` are the registered kinds in order, `corpusKinds` those of two files.
const datasetSpec = (kinds: readonly string[], corpusKinds: readonly string[]) =>
  z
    .object({
      // The Precis dataset name; when `path` is given it is imported first (a no-op if unchanged).
      name,
      kind: z.enum(kinds as [string, ...string[]]).optional(),
      path: z.string().min(1).optional(),
      // Kinds of two files: the documents JSONL the queries (`path`) retrieve from.
      corpus: z.string().min(1).optional(),
      // Only these document external ids, or only the first `limit` documents.
      documents: z.array(z.string().min(1)).min(1).optional(),
      limit: int().positive().optional(),
    })
    .strict()
    .refine((d) => d.path === undefined || d.kind !== undefined, {
      message: `a dataset with a path needs its kind (${listed(kinds, 'or') || 'no dataset kind is loaded'})`,
      path: ['kind'],
    })
    .refine((d) => d.path === undefined || (d.corpus !== undefined) === corpusKinds.includes(d.kind!), {
      message: corpusKinds.length
        ? `${listed(corpusKinds, 'and')} datasets need \`corpus\` (the documents JSONL) beside \`path\`; other kinds take none`
        : 'no loaded dataset kind takes `corpus`',
      path: ['corpus'],
    });

// The fields of systems[].params the engine declares: a summarizer model's sampling, which the
// preflight checks. Strategies add their own (Strategy.params) and may list these to place them.
export const samplingParams = {
  temperature: z.number().min(0).max(2).default(0.5),
  topP: z.number().gt(0).max(1).default(1),
  maxTokens: int().positive().optional(),
};
const samplingParamsSpec = z.object(samplingParams).strict();

// A process serving precis.v1.SummarizerService: called for each strategy step like a model, with
// a deadline, bounded retries and at most maxConcurrency calls at once from a process.
export const pluginSpec = z
  .object({
    // A name or IPv4 address, or an IPv6 address in brackets ([::1]:50170).
    address: z
      .string()
      .regex(/^(?:[\w.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:50170'),
    timeoutMs: int().min(100).default(60_000),
    maxRetries: int().min(0).max(10).default(2),
    maxConcurrency: int().positive().default(4),
  })
  .strict();
export type PluginSpec = z.output<typeof pluginSpec>;

// A system that summarizes with one of the loaded families' strategies; `params` takes the
// engine's fields and those the strategies add.
const systemSpec = <P extends z.ZodObject>(strategies: readonly [string, ...string[]], params: P) =>
  z
    .object({
      name,
      source: z.undefined().optional(),
      strategy: z.enum(strategies),
      // Exactly one of: a model from the registry, an offline engine, or a summarizer plugin.
      model: z.string().min(1).optional(),
      engine: z.enum(['textrank', 'lead']).optional(),
      plugin: pluginSpec.optional(),
      params: params.default(params.parse({}) as never),
    })
    .strict()
    .refine((s) => [s.model, s.engine, s.plugin].filter((x) => x !== undefined).length === 1, {
      message:
        'give exactly one of "model" (a registry model), "engine" (textrank or lead) or "plugin" ({ address: host:port })',
    });

// Tasks each stage works on at once (limits.concurrency). Model calls are limited separately, per
// endpoint (the registry's maxConcurrency), so this mostly bounds memory and database load: it
// must be high enough to keep an endpoint busy while other tasks are being claimed and persisted.
// With 16, a one-sample judge sweep kept 16 of a 128-slot endpoint's slots busy and ran at 9.6x
// the ideal time; with 128, 2.7x. npm run bench peer-load (2,002 calls, 64 slots, embedded): with
// 128 the slots were busy 35 on average, in waves; job 6.5 s at 128, 5.2 at 256, 4.7-5.0 at 512.
export const DEFAULT_STAGE_CONCURRENCY = 512;

// Stages whose calls limits.batch may send through provider batches (chat calls; retrieval's
// embeddings always go online).
export const BATCH_STAGES = ['summarize', 'verify', 'score'] as const;

type EngineSystemSpec = z.output<ReturnType<typeof systemSpec<typeof samplingParamsSpec>>>;
// The engine's params, and those a family's strategy adds (it reads them with its own schema).
export type SystemSpec = Omit<EngineSystemSpec, 'params'> & {
  params: EngineSystemSpec['params'] & Record<string, unknown>;
};
// A system from a family's system source (e.g. `source: dataset`).
export interface SourcedSystemSpec {
  name: string;
  source: string;
  strategy: string;
  model?: undefined;
  engine?: undefined;
  [key: string]: unknown;
}
export type AnySystemSpec = SystemSpec | SourcedSystemSpec;
// A metric of a loaded family; a judge model, if any, is at judge.model.
export interface AnyMetricSpec {
  name: string;
  judge?: { model?: string; [key: string]: unknown };
  [key: string]: unknown;
}

// A significance level: what bootstrap.alpha accepts.
const ALPHA_RANGE = 'expected a number between 0 and 1 (both excluded), e.g. 0.05';

function specObject(
  datasets: ReturnType<typeof datasetSpec>,
  systems: z.ZodType<AnySystemSpec[]>,
  metrics: z.ZodType<AnyMetricSpec[]>,
) {
  return z
    .object({
      name,
      description: z.string().optional(),
      seed: int().default(1),
      // Model registry file (relative to the spec); else PRECIS_MODELS or ./precis.models.yaml.
      models: z.string().min(1).optional(),
      datasets: z.array(datasets).min(1),
      systems,
      metrics,
      limits: z
        .object({
          concurrency: int().min(1).max(1024).default(DEFAULT_STAGE_CONCURRENCY),
          costUsd: z.number().positive().optional(),
          // Stages whose model calls may wait for a provider batch (models with registry `batch`).
          batch: z.array(z.enum(BATCH_STAGES)).optional(),
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
      // alpha: the leaderboards' significance level after Holm's correction (reports use 0.05
      // when it is absent; optional so that a spec without it keeps its hash).
      bootstrap: z
        .object({
          resamples: int().min(100).max(100000).default(1000),
          alpha: z.number().gt(0, ALPHA_RANGE).lt(1, ALPHA_RANGE).optional(),
        })
        .strict()
        .default({ resamples: 1000 }),
    })
    .strict();
}

export type BenchmarkSpec = z.output<ReturnType<typeof specObject>>;
export type DatasetSpec = BenchmarkSpec['datasets'][number];

type Options = [z.ZodObject, ...z.ZodObject[]];

// The spec schema of the loaded families: their strategies, system sources and metrics joined
// into the systems and metrics unions, and their cross-field checks after the engine's own.
export function buildSpecSchema(registry: FamilyRegistry): z.ZodType<BenchmarkSpec> {
  const strategies = [...registry.strategies.keys()] as [string, ...string[]];
  const sources = [...registry.sources.values()].map((s) => s.schema);
  const metrics = [...registry.metrics.values()].map((m) => m.schema);
  const params = z.object(registry.params).strict();
  const systems = z
    .array(z.discriminatedUnion('source', [systemSpec(strategies, params), ...sources] as unknown as Options))
    .min(1);
  const registered = [...registry.datasetKinds.values()];
  const datasets = datasetSpec(
    registered.map((k) => k.name),
    registered.filter((k) => k.corpus).map((k) => k.name),
  );
  return specObject(
    datasets,
    systems as unknown as z.ZodType<AnySystemSpec[]>,
    z.array(z.discriminatedUnion('name', metrics as unknown as Options)).min(1) as unknown as z.ZodType<
      AnyMetricSpec[]
    >,
  ).superRefine((spec, ctx) => {
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
    const kinds = spec.datasets.map((d) => d.kind);
    for (const issue of strategyFitProblems(registry, spec, kinds))
      ctx.addIssue({ code: 'custom', ...issue });
    for (const family of registry.families)
      for (const issue of family.checkSpec?.(spec) ?? []) ctx.addIssue({ code: 'custom', ...issue });
  });
}

// Systems whose strategy cannot summarize a dataset's kind (kinds unknown yet are skipped).
export function strategyFitProblems(
  registry: FamilyRegistry,
  spec: Pick<BenchmarkSpec, 'systems' | 'datasets'>,
  kinds: readonly (string | undefined)[],
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const served = [...registry.strategies.values()].filter((x) => x.plugins).map((x) => x.name);
  spec.systems.forEach((s, i) => {
    if (!isGeneratedSystem(s)) return;
    if (s.plugin && !registry.strategies.get(s.strategy)?.plugins)
      problems.push({
        path: ['systems', i, 'plugin'],
        message: `strategy "${s.strategy}" is not served by summarizer plugins; plugins serve ${served.join(', ') || 'no loaded strategy'}`,
      });
    const fits = registry.strategies.get(s.strategy)?.datasetKinds;
    if (!fits) return;
    kinds.forEach((kind, d) => {
      if (kind !== undefined && !fits.includes(kind))
        problems.push({
          path: ['systems', i, 'strategy'],
          message: `strategy "${s.strategy}" cannot summarize datasets[${d}] (${spec.datasets[d]!.name}, kind ${kind}); it takes ${fits.join(' or ')} datasets`,
        });
    });
  });
  return problems;
}

export const isGeneratedSystem = (s: AnySystemSpec): s is SystemSpec => s.source === undefined;

// The generated system a summarize task names; a task whose system left the spec cannot run.
export function taskSystem(spec: BenchmarkSpec, name: unknown, taskId: string): SystemSpec {
  const system = spec.systems.filter(isGeneratedSystem).find((s) => s.name === name);
  if (!system)
    throw new ConfigurationError(`task ${taskId}: system ${String(name)} is not in the run's spec`);
  return system;
}
