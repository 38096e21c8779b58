import {
  type AnyMetricSpec,
  type BenchmarkSpec,
  checkMetricScopes,
  int,
  isGeneratedSystem,
  judgeModelOf,
  metricsNamed,
  name,
  type SystemSpec,
  scopedJudgeFields,
} from '@precis/engine/family';
import { z } from 'zod';
import type { KgdsPattern } from './prompts/kgds.parsers.js';

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
    ...scopedJudgeFields('lexical'),
    // Gold vs the model's EBS, when they differ (needs a model judge).
    feedback: z.boolean().default(true),
  })
  .strict();

export type KgdsMetricSpec = z.output<typeof kgdsMetricSpec>;

export const isKgdsMetric = (m: AnyMetricSpec): m is KgdsMetricSpec => m.name === 'kgds';

export const judgeModel = (m: KgdsMetricSpec) => judgeModelOf(m);

// The kgds metrics of a spec with their index.
export const kgdsMetrics = (spec: BenchmarkSpec) => metricsNamed<KgdsMetricSpec>(spec, 'kgds');

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
  problems.push(...checkMetricScopes(spec, 'kgds', () => true));
  return problems;
}
