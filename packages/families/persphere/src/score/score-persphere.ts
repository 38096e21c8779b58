import type { MetricValueEntity } from '@precis/db';
import {
  isGeneratedSystem,
  metricCovers,
  type RowWork,
  type RunContext,
  retrieveTaskId,
  type ScoringInput,
  summaryDocumentData,
  type TaskResultRow,
  taskResultsByKind,
  upsertBoardRows,
  upsertMetricValues,
} from '@precis/engine/family';
import { persphereTargets } from '@precis/retrievers';
import {
  isPersphereSystem,
  judgeModel,
  type PersphereMetricSpec,
  persphereMetrics,
  persphereSettings,
} from '../persphere-spec.js';
import type { GoldClaim } from '../query.js';
import { RETRIEVE_STEP, type RetrieveResult } from '../retrieve/retrieve-task.js';
import { PERSPHERE_PARTS, persphereTaskId } from '../verify/persphere-metric.js';
import { OFFLINE } from '../verify/verify-context.js';
import { type PersphereRow, persphereRow, type SampleInput } from './persphere-row.js';
import { persphereProducers, persphereSampleValues } from './sample-values.js';

const judgeLabel = (m: PersphereMetricSpec) => ('model' in m.judge ? `model:${m.judge.model}` : OFFLINE);

// One sample's inputs from its tasks, or null when one of them did not finish (counted as failed).
function sampleOf(
  order: number,
  claims: GoldClaim[],
  tasks: (TaskResultRow | undefined)[],
  retrieved: string[],
): SampleInput | null {
  if (tasks.some((t) => t?.status !== 'done')) return null;
  const [overall, rp, stance, reference] = tasks.map((t) => t!.result!) as Record<string, unknown>[];
  return {
    order,
    ...persphereTargets(claims),
    retrieved,
    rating: overall!.rating as number,
    rpEntailed: (rp!.verdicts as { entailed: boolean }[]).map((v) => v.entailed),
    stance: stance!.labels as SampleInput['stance'],
    reference: reference!.labels as SampleInput['reference'],
  };
}

function systemRow(
  input: ScoringInput,
  tasks: Map<string, TaskResultRow>,
  claims: Map<string, GoldClaim[]>,
  m: { index: number; metric: PersphereMetricSpec },
  system: string,
): { row: PersphereRow; values: Partial<MetricValueEntity>[] } {
  const spec = input.spec.systems.find((s) => s.name === system)!;
  const settings = isGeneratedSystem(spec) ? persphereSettings(spec) : null;
  const summaries = input.summaries.filter((s) => s.system === system);
  const work: RowWork = {
    summaries: { expected: input.runDocuments, failed: input.runDocuments - summaries.length },
    judgments: { expected: summaries.length * PERSPHERE_PARTS.length, failed: 0 },
  };
  const samples: SampleInput[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  const metric = `persphere.${m.index}`;
  const retriever = settings?.retrieverName ?? 'golden';
  const k = settings && settings.retriever !== null ? settings.k : null;
  const producers = persphereProducers(input.spec, judgeLabel(m.metric), judgeModel(m.metric) !== undefined);
  let warnings = 0;
  for (const s of summaries) {
    const retrieve = tasks.get(retrieveTaskId(input.runId, system, s.documentId, RETRIEVE_STEP))?.result as
      | RetrieveResult
      | undefined;
    if (retrieve?.warnings.length) warnings++;
    const parts = PERSPHERE_PARTS.map((p) => tasks.get(persphereTaskId(input.runId, s, m.index, p)));
    work.judgments.failed += parts.filter((t) => t?.status !== 'done').length;
    const sample = sampleOf(
      s.order,
      claims.get(s.documentId) ?? [],
      parts,
      retrieve?.hits.map((h) => h.id) ?? [],
    );
    if (!sample) continue;
    samples.push(sample);
    const at = { runId: input.runId, system, documentId: s.documentId, metric, retriever, k };
    values.push(...persphereSampleValues(at, sample, producers));
  }
  const row = persphereRow(
    {
      system,
      summarizer: spec.model !== undefined ? `model:${spec.model}` : `engine:${spec.engine}`,
      strategy: spec.strategy,
      metric,
      judge: judgeLabel(m.metric),
      retriever,
      k,
    },
    samples,
    work,
    warnings,
    { resamples: input.spec.bootstrap.resamples, seed: input.spec.seed },
  );
  return { row, values };
}

// The PerSphere leaderboards: one row per system each persphere metric judges, and each judged
// query's own values.
export async function scorePersphere(ctx: RunContext, input: ScoringInput): Promise<Record<string, unknown>> {
  const metrics = persphereMetrics(input.spec);
  if (metrics.length === 0) return {};
  const tasks = await taskResultsByKind(ctx.db, input.runId, [
    'persphere-retrieve',
    ...PERSPHERE_PARTS.map((p) => `persphere-${p}`),
  ]);
  const data = await summaryDocumentData(ctx.db, input.summaries);
  const claims = new Map([...data].map(([id, d]) => [id, (d as { claims: GoldClaim[] }).claims]));
  const board: PersphereRow[] = [];
  const values: Partial<MetricValueEntity>[] = [];
  for (const m of metrics)
    for (const s of input.spec.systems.filter(
      (x) => isPersphereSystem(input.spec, x.name) && metricCovers(m.metric, x.name),
    )) {
      const own = systemRow(input, tasks, claims, m, s.name);
      board.push(own.row);
      values.push(...own.values);
    }
  await upsertMetricValues(ctx.db, values);
  await upsertBoardRows(ctx.db, input.runId, board, (r) => r.persphere?.overall ?? null);
  return { persphere: board };
}
