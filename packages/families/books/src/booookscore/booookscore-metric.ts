import {
  type BenchmarkSpec,
  isGeneratedSystem,
  judgeModelUses,
  type Metric,
  type NewTask,
  type SettledSummary,
  verifyTaskId,
} from '@precis/engine/family';
import { splitSentences } from '@precis/text';
import type { AnnotateCoherencePayload } from '../payloads.js';
import { booookScoreMetricSpec, isBooookScoreMetric } from './booookscore-spec.js';
import { BOOOKSCORE_BATCH_KIND } from './booookscore-task.js';

// The BooookScore batches of settled summaries: one task per `batchSize` sentences (one per
// sentence in sentence mode), for every BooookScore metric of the spec.
function batches(runId: string, spec: BenchmarkSpec, summaries: readonly SettledSummary[]): NewTask[] {
  const tasks: NewTask[] = [];
  // Only summaries of generated systems: they are the ones the BooookScore rows score.
  const generated = new Set(spec.systems.filter(isGeneratedSystem).map((s) => s.name));
  for (const s of summaries) {
    if (!generated.has(s.system)) continue;
    const sentences = splitSentences(s.text);
    spec.metrics.forEach((metric, metricIndex) => {
      if (!isBooookScoreMetric(metric)) return;
      const size = metric.mode === 'sentence' ? 1 : metric.batchSize;
      for (let start = 0, batch = 0; start < sentences.length; start += size, batch++) {
        const payload: AnnotateCoherencePayload = {
          type: BOOOKSCORE_BATCH_KIND,
          system: s.system,
          documentId: s.documentId,
          summaryId: s.id,
          metricIndex,
          sentences: sentences.slice(start, start + size).map((text, i) => ({ n: start + i + 1, text })),
        };
        tasks.push({
          id: verifyTaskId(runId, s.system, s.documentId, `${metric.name}.${metricIndex}`, batch),
          runId,
          stage: 'verify',
          kind: BOOOKSCORE_BATCH_KIND,
          payload: payload as unknown as Record<string, unknown>,
        });
      }
    });
  }
  return tasks;
}

export const booookScoreMetric: Metric = {
  name: 'booookscore',
  schema: booookScoreMetricSpec,
  async open(_ctx, runId, spec) {
    return { tasksFor: (summaries) => batches(runId, spec, summaries) };
  },
  modelUses: judgeModelUses,
};
