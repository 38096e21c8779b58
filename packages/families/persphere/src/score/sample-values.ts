import type { MetricValueEntity } from '@precis/db';
import { type BenchmarkSpec, metricValueId, runTemplate } from '@precis/engine/family';
import type { PromptTemplate } from '@precis/prompts';
import {
  PERSPHERE_ENTAIL_TEMPLATE,
  PERSPHERE_EXTRACT_TEMPLATE,
  PERSPHERE_RATING_TEMPLATE,
} from '../prompts/persphere.templates.js';
import { persphereSampleScores, type SampleInput } from './persphere-row.js';

// Recall@k and Cover@k compare document ids: no judge is involved.
export const RETRIEVAL_PRODUCER = 'offline: top k vs gold evidence';

export interface PersphereProducers {
  overall: string;
  rp: string;
}

// The judge with the template versions behind Overall@k and Rp@k, or the offline engine's label.
export function persphereProducers(spec: BenchmarkSpec, judge: string, byModel: boolean): PersphereProducers {
  if (!byModel) return { overall: judge, rp: judge };
  const ref = (t: PromptTemplate) => {
    const used = runTemplate(t, spec.templateOverrides);
    return `${used.id}@${used.version}`;
  };
  return {
    overall: `${judge} ${ref(PERSPHERE_RATING_TEMPLATE)}`,
    rp: `${judge} ${ref(PERSPHERE_EXTRACT_TEMPLATE)} + ${ref(PERSPHERE_ENTAIL_TEMPLATE)}`,
  };
}

// The metric keys of a system retrieving k documents (`golden` for each query's own evidence):
// the retrieval figures carry their k, since Recall@10 and Recall@20 are different measures;
// Overall is the summary's rating whatever was retrieved, so every system shares it.
export function persphereSampleMetrics(k: number | null) {
  const at = k === null ? 'golden' : String(k);
  return {
    overall: 'persphere:overall',
    recall: `persphere:recall@${at}`,
    cover: `persphere:cover@${at}`,
    rp: `persphere:rp@${at}`,
  };
}

// One query's PerSphere numbers as per-document values, on the leaderboard's scales (percent,
// Overall 1–10). A system is judged by the first persphere metric covering it only, so these
// keys never collide within a run.
export function persphereSampleValues(
  at: {
    runId: string;
    system: string;
    documentId: string;
    metric: string;
    retriever: string;
    k: number | null;
  },
  sample: SampleInput,
  producers: PersphereProducers,
): Partial<MetricValueEntity>[] {
  const scores = persphereSampleScores(sample, at.k);
  const keys = persphereSampleMetrics(at.k);
  const head = { metric: at.metric, retriever: at.retriever, k: at.k };
  const entailed = sample.rpEntailed.filter(Boolean).length;
  return [
    { metric: keys.overall, value: scores.overall, producedBy: producers.overall, details: head },
    { metric: keys.recall, value: scores.recall, producedBy: RETRIEVAL_PRODUCER, details: head },
    { metric: keys.cover, value: scores.cover, producedBy: RETRIEVAL_PRODUCER, details: head },
    {
      metric: keys.rp,
      value: scores.rp,
      producedBy: producers.rp,
      details: { ...head, entailed, perspectives: sample.rpEntailed.length },
    },
  ].map((v) => ({
    id: metricValueId(at.runId, at.system, at.documentId, v.metric),
    runId: at.runId,
    system: at.system,
    documentId: at.documentId,
    ...v,
  }));
}
