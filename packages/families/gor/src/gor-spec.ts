import {
  type BenchmarkSpec,
  checkMetricScopes,
  int,
  isGeneratedSystem,
  metricsNamed,
  name,
  type ScopedMetricSpec,
  type SystemSpec,
} from '@precis/engine/family';
import { parseRetriever, type RetrieverSpec, RetrieverSpecError } from '@precis/retrievers';
import { z } from 'zod';

// gor: the trained graph of records (or its raw embeddings with `training: false`);
// thought-retriever: the records' responses appended to the chunks, ranked by a retriever, no
// graph; rag: the chunks ranked by a retriever; context-window: the meeting cut to the window.
export const GOR_STRATEGIES = ['gor', 'thought-retriever', 'rag', 'context-window'] as const;
export type GorStrategy = (typeof GOR_STRATEGIES)[number];
// The offline embedder: LSA fitted on each meeting's chunks.
export const LSA_EMBEDDER = 'lsa';

// What the GoR strategies add to `systems[].params` (METHODS.md §5).
export const gorParams = {
  queries: int().positive().optional(),
  k: int().positive().optional(),
  embedder: z.string().min(1).optional(),
  dimensions: int().positive().optional(),
  retriever: z.string().min(1).optional(),
  training: z.boolean().optional(),
  inBatchNegatives: z.boolean().optional(),
  alpha: z.number().min(0).optional(),
  tau: z.number().positive().optional(),
  epochs: int().positive().optional(),
  batchSize: int().positive().optional(),
  learningRate: z.number().positive().optional(),
  dropout: z.number().min(0).max(0.5).optional(),
  chunkTokens: int().min(16).optional(),
  chunkOverlap: int().min(0).optional(),
  responseWords: int().positive().optional(),
  contextTokens: int().min(256).optional(),
  // Words of the summary (offline engines; default 150).
  budgetWords: int().positive().optional(),
};

export interface GorSettings {
  strategy: GorStrategy;
  queries: number;
  k: number;
  embedder: string;
  dimensions: number;
  retriever: RetrieverSpec;
  retrieverName: string;
  training: boolean;
  train: {
    alpha: number;
    tau: number;
    epochs: number;
    batchSize: number;
    learningRate: number;
    inBatchNegatives: boolean;
  };
  dropout: number;
  chunkTokens: number;
  chunkOverlap: number;
  // Offline engines: words of a record's response and of the summary.
  responseWords: number;
  summaryWords: number;
  // context-window: tokens of the meeting kept (from its start).
  contextTokens: number;
}

type GorParams = { [K in keyof typeof gorParams]?: z.output<(typeof gorParams)[K]> };

export function gorSettings(system: SystemSpec): GorSettings {
  const p = system.params as GorParams;
  const retrieverName = p.retriever ?? 'bm25';
  return {
    strategy: system.strategy as GorStrategy,
    queries: p.queries ?? 30,
    k: p.k ?? 6,
    embedder: p.embedder ?? LSA_EMBEDDER,
    dimensions: p.dimensions ?? 64,
    retriever: parseRetriever(retrieverName, p.dimensions === undefined ? {} : { dimensions: p.dimensions }),
    retrieverName,
    training: p.training ?? true,
    train: {
      alpha: p.alpha ?? 0.5,
      tau: p.tau ?? 0.1,
      epochs: p.epochs ?? 150,
      batchSize: p.batchSize ?? 32,
      learningRate: p.learningRate ?? 1e-3,
      inBatchNegatives: p.inBatchNegatives ?? true,
    },
    dropout: p.dropout ?? 0,
    chunkTokens: p.chunkTokens ?? 256,
    chunkOverlap: p.chunkOverlap ?? 32,
    responseWords: p.responseWords ?? 60,
    summaryWords: p.budgetWords ?? 150,
    contextTokens: p.contextTokens ?? 4096,
  };
}

export const isGorSystem = (spec: BenchmarkSpec, system: string): boolean => {
  const s = spec.systems.find((x) => x.name === system);
  return !!s && isGeneratedSystem(s) && (GOR_STRATEGIES as readonly string[]).includes(s.strategy);
};

// ROUGE-1/2/L F1 against the meeting's references (the best one), computed when scoring.
export const rougeMetricSpec = z
  .object({
    name: z.literal('rouge'),
    stemmer: z.boolean().default(true),
    systems: z.array(name).min(1).optional(),
  })
  .strict();
export type RougeMetricSpec = z.output<typeof rougeMetricSpec>;

// The pairwise judge (METHODS.md §5.8): each system's summary against the baseline's, both orders.
export const pairwiseMetricSpec = z
  .object({
    name: z.literal('gor-pairwise'),
    judge: z.object({ model: z.string().min(1), temperature: z.number().min(0).max(2).default(0) }).strict(),
    baseline: name,
    systems: z.array(name).min(1).optional(),
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();
export type PairwiseMetricSpec = z.output<typeof pairwiseMetricSpec> & ScopedMetricSpec;

export const rougeMetrics = (spec: BenchmarkSpec) =>
  metricsNamed<RougeMetricSpec & ScopedMetricSpec>(spec, 'rouge');
export const pairwiseMetrics = (spec: BenchmarkSpec) =>
  metricsNamed<PairwiseMetricSpec>(spec, 'gor-pairwise');

type Problem = { path: (string | number)[]; message: string };

// Offline systems use the textrank engine, retrievers parse, a pairwise baseline is a GoR system.
export function checkGorSpec(spec: BenchmarkSpec): Problem[] {
  const problems: Problem[] = [];
  spec.systems.forEach((s, i) => {
    if (!isGeneratedSystem(s) || !isGorSystem(spec, s.name)) return;
    if (s.engine !== undefined && s.engine !== 'textrank')
      problems.push({
        path: ['systems', i, 'engine'],
        message: `GoR offline systems use engine "textrank" (got "${s.engine}")`,
      });
    try {
      gorSettings(s);
    } catch (err) {
      if (!(err instanceof RetrieverSpecError)) throw err;
      problems.push({ path: ['systems', i, 'params', 'retriever'], message: err.message });
    }
  });
  const pairwise = pairwiseMetrics(spec);
  // Win rates are reported on the ROUGE rows of the same systems.
  if (pairwise.length > 0 && rougeMetrics(spec).length === 0)
    problems.push({
      path: ['metrics', pairwise[0]!.index],
      message: 'gor-pairwise reports its win rates beside ROUGE: add `- name: rouge` to metrics',
    });
  for (const { index, metric } of pairwise)
    if (!isGorSystem(spec, metric.baseline))
      problems.push({
        path: ['metrics', index, 'baseline'],
        message: `baseline "${metric.baseline}" is not a GoR system of this spec`,
      });
  const judged = (system: string) => isGorSystem(spec, system);
  problems.push(
    ...checkMetricScopes(spec, 'rouge', judged),
    ...checkMetricScopes(spec, 'gor-pairwise', judged),
  );
  return problems;
}
