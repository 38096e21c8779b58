import {
  type BenchmarkSpec,
  judgeModelUses,
  type Metric,
  metricCovers,
  type NewTask,
  type SettledSummary,
} from '@precis/engine/family';
import { judgeModel, kgdsMetricSpec, kgdsMetrics, systemPattern } from '../kgds-spec.js';
import { partsTaskId } from '../summary/summary-parts.js';
import type { KgdsVerifyPayload } from './verify-context.js';

export type KgdsPart = 'facts' | 'opinions' | 'feedback';

export const kgdsTaskId = (runId: string, s: SettledSummary, metricIndex: number, part: KgdsPart) =>
  `${runId}:verify:${s.system}:${s.documentId}:kgds.${metricIndex}:${part}`;

// The verify tasks of one KGDS summary: the opinions always; the facts of an ABS-AOS summary;
// the feedback judgment of an EBS-AOS summary when a model judges (the task itself skips the
// judge call when the EBS equals the gold one).
export function kgdsTasksFor(
  runId: string,
  spec: BenchmarkSpec,
  summaries: readonly SettledSummary[],
): NewTask[] {
  const metrics = kgdsMetrics(spec);
  return summaries.flatMap((s) => {
    const pattern = systemPattern(spec, s.system);
    const found = metrics.find((m) => metricCovers(m.metric, s.system));
    if (!pattern || !found) return [];
    const parts: KgdsPart[] = ['opinions'];
    if (pattern === 'abs-aos') parts.unshift('facts');
    else if (found.metric.feedback && judgeModel(found.metric) !== undefined) parts.push('feedback');
    const inputTask = partsTaskId(runId, spec, s);
    return parts.map((part) => {
      const payload: KgdsVerifyPayload = {
        type: 'kgds-verify',
        system: s.system,
        documentId: s.documentId,
        summaryId: s.id,
        metricIndex: found.index,
        ...(inputTask === undefined ? {} : { inputTask }),
      };
      return {
        id: kgdsTaskId(runId, s, found.index, part),
        runId,
        stage: 'verify',
        kind: `kgds-${part}`,
        payload: { ...payload },
      };
    });
  });
}

export const kgdsMetric: Metric = {
  name: 'kgds',
  schema: kgdsMetricSpec,
  async open(_ctx, runId, spec) {
    return { tasksFor: (summaries) => kgdsTasksFor(runId, spec, summaries) };
  },
  modelUses: judgeModelUses,
};
