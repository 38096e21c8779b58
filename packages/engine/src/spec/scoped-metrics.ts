import type { ModelUse } from '@precis/llm';
import { z } from 'zod';
import { type AnyMetricSpec, type BenchmarkSpec, int, name } from './benchmark-spec.schema.js';

// Fields of a metric judged by a registry model or by a family's offline engine, optionally
// scoped to some systems, with bounded re-asks.
export const scopedJudgeFields = (engine: string) => ({
  judge: z.union([
    z.object({ model: z.string().min(1), temperature: z.number().min(0).max(2).default(0) }).strict(),
    z.object({ engine: z.literal(engine) }).strict(),
  ]),
  // Only these systems (default: all the family's); another metric of the same name judges the rest.
  systems: z.array(name).min(1).optional(),
  // Attempts per judge call before its task is recorded as failed.
  maxAttempts: int().min(1).max(10).default(3),
});

export interface ScopedMetricSpec extends AnyMetricSpec {
  judge: { model: string; temperature: number } | { engine: string };
  systems?: string[];
  maxAttempts: number;
}

export const judgeModelOf = (m: ScopedMetricSpec): string | undefined =>
  'model' in m.judge ? m.judge.model : undefined;

// metrics[index]'s judge model at its judge.temperature, as the preflight checks it (the
// Metric.modelUses of a metric whose only model calls are its judge's).
export function judgeModelUses(spec: BenchmarkSpec, index: number): ModelUse[] {
  const m = spec.metrics[index];
  const judge = m?.judge;
  if (!m || typeof judge?.model !== 'string') return [];
  const t = judge.temperature;
  return [
    {
      where: `metrics[${index}] (${m.name} judge)`,
      model: judge.model,
      role: 'the judge',
      changeModel: 'judge with',
      ...(typeof t === 'number'
        ? { temperature: t, temperatureField: `metrics[${index}].judge.temperature` }
        : {}),
    },
  ];
}

export const metricCovers = (m: ScopedMetricSpec, system: string) => !m.systems || m.systems.includes(system);

// The spec's metrics of one name, with their index in `metrics`.
export function metricsNamed<M extends ScopedMetricSpec>(
  spec: BenchmarkSpec,
  metric: string,
): { index: number; metric: M }[] {
  return spec.metrics.flatMap((m, index) => (m.name === metric ? [{ index, metric: m as M }] : []));
}

type Problem = { path: (string | number)[]; message: string };

// Every system a metric names exists, and no system (of those `judged` accepts) is judged twice.
export function checkMetricScopes(
  spec: BenchmarkSpec,
  metric: string,
  judged: (system: string) => boolean,
): Problem[] {
  const problems: Problem[] = [];
  const covered = new Map<string, number>();
  for (const { index, metric: m } of metricsNamed(spec, metric)) {
    for (const n of m.systems ?? [])
      if (!spec.systems.some((s) => s.name === n))
        problems.push({ path: ['metrics', index, 'systems'], message: `no system named "${n}" in the spec` });
    for (const s of spec.systems.filter((x) => judged(x.name) && metricCovers(m, x.name))) {
      const first = covered.get(s.name);
      if (first !== undefined)
        problems.push({
          path: ['metrics', index, 'systems'],
          message: `system "${s.name}" is already judged by metrics[${first}]; give each ${metric} metric its own systems`,
        });
      else covered.set(s.name, index);
    }
  }
  return problems;
}
