import {
  type AnyMetricSpec,
  type BenchmarkSpec,
  int,
  isGeneratedSystem,
  name,
  type SystemSpec,
} from '@precis/engine';
import type { KgdsPattern } from '@precis/prompts';
import { z } from 'zod';

export const KGDS_PATTERNS = ['ebs-aos', 'abs-aos'] as const satisfies readonly KgdsPattern[];
export const DEFAULT_LEAD_PARAGRAPHS = 3;

// What the KGDS strategies add to `systems[].params` (METHODS.md §2.2).
export const kgdsParams = {
  // structured: one turn; self-reflection: the structured turn, then a reflection turn.
  paradigm: z.enum(['structured', 'self-reflection']).optional(),
  // Offline `lead` engine: the first k article paragraphs are the extractive background.
  paragraphs: int().positive().optional(),
};

export interface KgdsSystemSettings {
  pattern: KgdsPattern;
  paradigm: 'structured' | 'self-reflection';
  paragraphs: number;
}

export function kgdsSettings(system: SystemSpec): KgdsSystemSettings {
  const p = system.params as { paradigm?: KgdsSystemSettings['paradigm']; paragraphs?: number };
  return {
    pattern: system.strategy as KgdsPattern,
    paradigm: p.paradigm ?? 'structured',
    paragraphs: p.paragraphs ?? DEFAULT_LEAD_PARAGRAPHS,
  };
}

// The gold reference (`source: gold`): EBS = the gold supporting paragraphs, ABS = the key
// supporting facts joined, AOS = the clear atomic opinions joined.
export const goldSystemSpec = z
  .object({
    name,
    source: z.literal('gold'),
    pattern: z.enum(KGDS_PATTERNS).default('ebs-aos'),
    strategy: z.literal('gold').default('gold'),
    model: z.undefined().optional(),
    engine: z.undefined().optional(),
  })
  .strict();

export type GoldSystemSpec = z.output<typeof goldSystemSpec>;

// The KGDS metrics: BSP / KBSAF, CAO recall and error types, OP_GM, feedback win rate.
export const kgdsMetricSpec = z
  .object({
    name: z.literal('kgds'),
    judge: z.union([
      z.object({ model: z.string().min(1), temperature: z.number().min(0).max(2).default(0) }).strict(),
      z.object({ engine: z.literal('lexical') }).strict(),
    ]),
    // Only these systems (default: all); another kgds metric can judge the rest.
    systems: z.array(name).min(1).optional(),
    // Gold vs the model's EBS, when they differ (needs a model judge).
    feedback: z.boolean().default(true),
    // Attempts per judge call before its task is recorded as failed.
    maxAttempts: int().min(1).max(10).default(3),
  })
  .strict();

export type KgdsMetricSpec = z.output<typeof kgdsMetricSpec>;

export const isKgdsMetric = (m: AnyMetricSpec): m is KgdsMetricSpec => m.name === 'kgds';

export const judgeModel = (m: KgdsMetricSpec): string | undefined =>
  'model' in m.judge ? m.judge.model : undefined;

// The kgds metrics of a spec with their index, and which one judges a system.
export function kgdsMetrics(spec: BenchmarkSpec): { index: number; metric: KgdsMetricSpec }[] {
  return spec.metrics.flatMap((m, index) => (isKgdsMetric(m) ? [{ index, metric: m }] : []));
}

export const metricCovers = (m: KgdsMetricSpec, system: string) => !m.systems || m.systems.includes(system);

// The KGDS pattern of a system of the spec (a strategy or the gold source), if it has one.
export function systemPattern(spec: BenchmarkSpec, system: string): KgdsPattern | undefined {
  const s = spec.systems.find((x) => x.name === system);
  if (!s) return undefined;
  if (s.source === 'gold') return (s as GoldSystemSpec).pattern;
  if (isGeneratedSystem(s) && (KGDS_PATTERNS as readonly string[]).includes(s.strategy))
    return s.strategy as KgdsPattern;
  return undefined;
}

type Problem = { path: (string | number)[]; message: string };

// Cross-field checks: engines, metric scopes, and one metric per system.
export function checkKgdsSpec(spec: BenchmarkSpec): Problem[] {
  const problems: Problem[] = [];
  spec.systems.forEach((s, i) => {
    if (!isGeneratedSystem(s) || !(KGDS_PATTERNS as readonly string[]).includes(s.strategy)) return;
    if (s.engine !== undefined && s.engine !== 'lead')
      problems.push({
        path: ['systems', i, 'engine'],
        message: `KGDS offline systems use engine "lead" (got "${s.engine}")`,
      });
  });
  const covered = new Map<string, number>();
  for (const { index, metric } of kgdsMetrics(spec)) {
    for (const name of metric.systems ?? []) {
      if (!spec.systems.some((s) => s.name === name))
        problems.push({
          path: ['metrics', index, 'systems'],
          message: `no system named "${name}" in the spec`,
        });
    }
    for (const s of spec.systems) {
      if (!metricCovers(metric, s.name)) continue;
      const first = covered.get(s.name);
      if (first !== undefined)
        problems.push({
          path: ['metrics', index, 'systems'],
          message: `system "${s.name}" is already judged by metrics[${first}]; give each kgds metric its own systems`,
        });
      else covered.set(s.name, index);
    }
  }
  return problems;
}
