import type { MetricValueEntity } from '@precis/db';
import { type BenchmarkSpec, metricValueId, runTemplate } from '@precis/engine/family';
import type { PromptTemplate } from '@precis/prompts';
import { opGeometricMean, type PrfScore } from '../metrics/kgds.js';
import { KGDS_FACTS_TEMPLATE, KGDS_OPINIONS_TEMPLATE } from '../prompts/kgds.templates.js';
import type { SampleScores } from './sample-scores.js';

// BSP and the paragraph ratio compare indices: no judge is involved.
export const BSP_PRODUCER = 'offline: indices vs gold BSP';

// Who produced each judged value of a metric: the judge with its template version, or the
// offline verifier (its label carries its own version).
export interface KgdsProducers {
  facts: string;
  opinions: string;
  // OP_GM of an ABS-AOS summary rests on both the facts and the opinions verdicts.
  factsAndOpinions: string;
}

export function kgdsProducers(spec: BenchmarkSpec, judge: string, byModel: boolean): KgdsProducers {
  if (!byModel) return { facts: judge, opinions: judge, factsAndOpinions: judge };
  const ref = (t: PromptTemplate) => {
    const used = runTemplate(t, spec.templateOverrides);
    return `${used.id}@${used.version}`;
  };
  const [facts, opinions] = [ref(KGDS_FACTS_TEMPLATE), ref(KGDS_OPINIONS_TEMPLATE)];
  return {
    facts: `${judge} ${facts}`,
    opinions: `${judge} ${opinions}`,
    factsAndOpinions: `${judge} ${facts} + ${opinions}`,
  };
}

type Value = { measure: string; value: number; producedBy: string; details?: Record<string, unknown> };

const pct = (x: number) => 100 * x;

function prf(name: 'bsp' | 'kbsaf', s: PrfScore, producedBy: string): Value[] {
  return (
    [
      ['p', 'precision'],
      ['r', 'recall'],
      ['f1', 'f1'],
    ] as const
  ).map(([short, k]) => ({
    measure: `${name}-${short}`,
    value: pct(s[k]),
    producedBy,
    ...(s.zeroDivision[k] ? { details: { zeroDivision: true } } : {}),
  }));
}

// One summary's KGDS numbers (METHODS.md §2.3) in percent, keyed like the leaderboard's columns
// (`kgds:bsp-f1`, `kgds:cao-r`, `kgds:op-gm`...). A system's summaries are judged by the first
// kgds metric that covers it only, so these keys never collide within a run.
export function kgdsSampleValues(
  at: { runId: string; system: string; documentId: string; metric: string },
  scores: SampleScores,
  producers: KgdsProducers,
): Partial<MetricValueEntity>[] {
  const background = scores.bsp ?? scores.kbsaf;
  const values: Value[] = [
    ...(scores.bsp ? prf('bsp', scores.bsp, BSP_PRODUCER) : []),
    ...(scores.paragraphRatio === null
      ? []
      : [{ measure: 'paragraph-ratio', value: pct(scores.paragraphRatio), producedBy: BSP_PRODUCER }]),
    ...(scores.kbsaf ? prf('kbsaf', scores.kbsaf, producers.facts) : []),
    {
      measure: 'cao-r',
      value: pct(scores.caoRecall),
      producedBy: producers.opinions,
      details: { errorTypes: scores.errors, zeroDivision: scores.zeroDivision.includes('caoRecall') },
    },
    // This summary's own OP_GM; a system's OP_GM is sqrt(mean F1 x mean CAO R), not this mean.
    {
      measure: 'op-gm',
      value: pct(opGeometricMean(background?.f1 ?? 0, scores.caoRecall)),
      producedBy: scores.kbsaf ? producers.factsAndOpinions : producers.opinions,
      details: { of: [scores.bsp ? 'kgds:bsp-f1' : 'kgds:kbsaf-f1', 'kgds:cao-r'] },
    },
  ];
  return values.map((v) => {
    const metric = `kgds:${v.measure}`;
    return {
      id: metricValueId(at.runId, at.system, at.documentId, metric),
      runId: at.runId,
      system: at.system,
      documentId: at.documentId,
      metric,
      value: v.value,
      details: { metric: at.metric, pattern: scores.pattern, ...v.details },
      producedBy: v.producedBy,
    };
  });
}
