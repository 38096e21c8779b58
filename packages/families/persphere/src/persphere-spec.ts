import {
  type BenchmarkSpec,
  checkMetricScopes,
  int,
  isGeneratedSystem,
  judgeModelOf,
  metricsNamed,
  type SystemSpec,
  scopedJudgeFields,
} from '@precis/engine/family';
import {
  parseRetriever,
  type RetrieverParams,
  type RetrieverSpec,
  RetrieverSpecError,
} from '@precis/retrievers';
import { z } from 'zod';

export const PERSPHERE_STRATEGIES = ['vanilla', 'hiersphere'] as const;
export type PersphereStrategy = (typeof PERSPHERE_STRATEGIES)[number];
export const DOCUMENT_ORDERS = ['ranked', 'reversed', 'random'] as const;
// `retriever: golden` hands the summarizer the query's gold evidence documents.
export const GOLDEN = 'golden';

// What the PerSphere strategies add to `systems[].params` (METHODS.md §3.1, §3.4, §3.5).
export const persphereParams = {
  retriever: z.string().min(1).optional(),
  k: int().positive().optional(),
  order: z.enum(DOCUMENT_ORDERS).optional(),
  agents: int().positive().optional(),
  k1: z.number().min(0).optional(),
  b: z.number().min(0).max(1).optional(),
  dimensions: int().positive().optional(),
  // The lexical retrievers' analyzer (default: lower case, English stop words, Porter stemming).
  lowercase: z.boolean().optional(),
  stopwords: z.enum(['english', 'none']).optional(),
  stemmer: z.enum(['porter', 'none']).optional(),
};

export interface PersphereSettings {
  strategy: PersphereStrategy;
  // null: the golden documents.
  retriever: RetrieverSpec | null;
  retrieverName: string;
  k: number;
  order: (typeof DOCUMENT_ORDERS)[number];
  agents: number;
}

export function persphereSettings(system: SystemSpec): PersphereSettings {
  const p = system.params as RetrieverParams & {
    retriever?: string;
    k?: number;
    order?: PersphereSettings['order'];
    agents?: number;
  };
  const retrieverName = p.retriever ?? 'bm25';
  const { k1, b, dimensions, lowercase, stopwords, stemmer } = p;
  const params = { k1, b, dimensions, lowercase, stopwords, stemmer };
  const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  return {
    strategy: system.strategy as PersphereStrategy,
    retriever: retrieverName === GOLDEN ? null : parseRetriever(retrieverName, defined),
    retrieverName,
    k: p.k ?? 10,
    order: p.order ?? 'ranked',
    agents: p.agents ?? 4,
  };
}

export const persphereMetricSpec = z
  .object({ name: z.literal('persphere'), ...scopedJudgeFields('lexical') })
  .strict();

export type PersphereMetricSpec = z.output<typeof persphereMetricSpec>;

export const judgeModel = (m: PersphereMetricSpec) => judgeModelOf(m);

// The system's own model detects stance and references (verify) at this temperature.
export const SYSTEM_VERIFY_TEMPERATURE = 0;

export const persphereMetrics = (spec: BenchmarkSpec) => metricsNamed<PersphereMetricSpec>(spec, 'persphere');

export const isPersphereSystem = (spec: BenchmarkSpec, system: string): boolean => {
  const s = spec.systems.find((x) => x.name === system);
  return !!s && isGeneratedSystem(s) && (PERSPHERE_STRATEGIES as readonly string[]).includes(s.strategy);
};

type Problem = { path: (string | number)[]; message: string };

// Retriever names parse, offline systems use `lead`, each system has at most one metric.
export function checkPersphereSpec(spec: BenchmarkSpec): Problem[] {
  const problems: Problem[] = [];
  spec.systems.forEach((s, i) => {
    if (!isGeneratedSystem(s) || !isPersphereSystem(spec, s.name)) return;
    if (s.engine !== undefined && s.engine !== 'lead')
      problems.push({
        path: ['systems', i, 'engine'],
        message: `PerSphere offline systems use engine "lead" (got "${s.engine}")`,
      });
    try {
      persphereSettings(s);
    } catch (err) {
      if (!(err instanceof RetrieverSpecError)) throw err;
      problems.push({ path: ['systems', i, 'params', 'retriever'], message: `${err.message}, or ${GOLDEN}` });
    }
  });
  problems.push(...checkMetricScopes(spec, 'persphere', (system) => isPersphereSystem(spec, system)));
  return problems;
}
