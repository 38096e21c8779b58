import {
  judgeModelUses,
  type Metric,
  metricCovers,
  type NewTask,
  type SettledSummary,
  verifyTaskId,
} from '@precis/engine/family';
import { isGorSystem, pairwiseMetricSpec, pairwiseMetrics, rougeMetricSpec } from '../gor-spec.js';

// ROUGE needs no task: the scorer computes it from the summaries and the meetings' references.
export const rougeMetric: Metric = {
  name: 'rouge',
  schema: rougeMetricSpec,
  async open() {
    return { tasksFor: () => [] };
  },
};

// Which settled summary planned a pairwise task: the system's own ('system') or the baseline's.
export type PairwiseSide = 'system' | 'baseline';

export interface PairwisePayload {
  type: 'gor-pairwise';
  system: string;
  baseline: string;
  documentId: string;
  metricIndex: number;
}

export const pairwiseTaskId = (
  runId: string,
  system: string,
  documentId: string,
  index: number,
  side: PairwiseSide,
) => verifyTaskId(runId, system, documentId, `gor-pairwise.${index}`, side === 'system' ? 0 : 1);

// A pair is judged once both summaries exist. Each of the two summaries plans its own task when
// it settles; the one planned second always finds both (summaries are stored before their judges
// are planned), the other records that it waited.
export const pairwiseMetric: Metric = {
  name: 'gor-pairwise',
  schema: pairwiseMetricSpec,
  async open(_ctx, runId, spec) {
    const metrics = pairwiseMetrics(spec);
    const task = (
      system: string,
      documentId: string,
      index: number,
      baseline: string,
      side: PairwiseSide,
    ): NewTask => {
      const payload: PairwisePayload = {
        type: 'gor-pairwise',
        system,
        baseline,
        documentId,
        metricIndex: index,
      };
      return {
        id: pairwiseTaskId(runId, system, documentId, index, side),
        runId,
        stage: 'verify',
        kind: 'gor-pairwise',
        payload: { ...payload },
      };
    };
    const compared = (m: (typeof metrics)[number]) =>
      spec.systems
        .map((s) => s.name)
        .filter((n) => n !== m.metric.baseline && isGorSystem(spec, n) && metricCovers(m.metric, n));
    return {
      tasksFor: (summaries: readonly SettledSummary[]) =>
        summaries.flatMap((s) =>
          metrics.flatMap((m) => {
            if (s.system === m.metric.baseline)
              return compared(m).map((n) => task(n, s.documentId, m.index, m.metric.baseline, 'baseline'));
            return compared(m).includes(s.system)
              ? [task(s.system, s.documentId, m.index, m.metric.baseline, 'system')]
              : [];
          }),
        ),
    };
  },
  modelUses: judgeModelUses,
};
