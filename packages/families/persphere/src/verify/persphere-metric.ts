import {
  type BenchmarkSpec,
  isGeneratedSystem,
  judgeModelUses,
  type Metric,
  type ModelUse,
  metricCovers,
  type NewTask,
  type SettledSummary,
} from '@precis/engine/family';
import {
  isPersphereSystem,
  persphereMetricSpec,
  persphereMetrics,
  SYSTEM_VERIFY_TEMPERATURE,
} from '../persphere-spec.js';

// Overall@k (rating), Rp@k (extraction + entailment), stance and reference determination.
export const PERSPHERE_PARTS = ['overall', 'rp', 'stance', 'reference'] as const;
export type PerspherePart = (typeof PERSPHERE_PARTS)[number];

export interface PersphereVerifyPayload {
  type: 'persphere-verify';
  system: string;
  documentId: string;
  summaryId: string;
  metricIndex: number;
}

export const persphereTaskId = (
  runId: string,
  s: { system: string; documentId: string },
  metricIndex: number,
  part: PerspherePart,
) => `${runId}:verify:${s.system}:${s.documentId}:persphere.${metricIndex}:${part}`;

export function persphereTasksFor(
  runId: string,
  spec: BenchmarkSpec,
  summaries: readonly SettledSummary[],
): NewTask[] {
  const metrics = persphereMetrics(spec);
  return summaries.flatMap((s) => {
    const found = metrics.find((m) => metricCovers(m.metric, s.system));
    if (!found || !isPersphereSystem(spec, s.system)) return [];
    const payload: PersphereVerifyPayload = {
      type: 'persphere-verify',
      system: s.system,
      documentId: s.documentId,
      summaryId: s.id,
      metricIndex: found.index,
    };
    return PERSPHERE_PARTS.map((part) => ({
      id: persphereTaskId(runId, s, found.index, part),
      runId,
      stage: 'verify' as const,
      kind: `persphere-${part}`,
      payload: { ...payload },
    }));
  });
}

// The judge (overall, Rp), and the own model of each system this metric verifies (stance and
// reference detection): both judge, at a temperature the method fixes.
function persphereModelUses(spec: BenchmarkSpec, index: number): ModelUse[] {
  const metrics = persphereMetrics(spec);
  const verified = spec.systems.filter(
    (s) =>
      isGeneratedSystem(s) &&
      isPersphereSystem(spec, s.name) &&
      metrics.find((m) => metricCovers(m.metric, s.name))?.index === index,
  );
  const own = verified.flatMap((s): ModelUse[] =>
    s.model === undefined
      ? []
      : [
          {
            where: `metrics[${index}] (persphere stance and reference, by system "${s.name}")`,
            model: s.model,
            role: 'stance and reference detection',
            changeModel: `give system "${s.name}"`,
            temperature: SYSTEM_VERIFY_TEMPERATURE,
            temperatureFix: `list only other systems in metrics[${index}].systems`,
          },
        ],
  );
  return [...judgeModelUses(spec, index), ...own];
}

export const persphereMetric: Metric = {
  name: 'persphere',
  schema: persphereMetricSpec,
  async open(_ctx, runId, spec) {
    return { tasksFor: (summaries) => persphereTasksFor(runId, spec, summaries) };
  },
  modelUses: persphereModelUses,
};
