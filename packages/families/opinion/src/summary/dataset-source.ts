import { SummaryEntity } from '@precis/db';
import {
  type BenchmarkSpec,
  insertSourceSummaries,
  type NewTask,
  type RunContext,
  type RunDocument,
  type SettledSummary,
  type SystemSource,
  summaryId,
} from '@precis/engine/family';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { type DatasetSystemSpec, datasetSystemSpec } from '../dimensions/dimensions-spec.js';
import { datasetSummaries } from './reviews.js';

interface DatasetSystemsPlan {
  expected: number;
  tasks: NewTask[];
  error: string | null;
}

// Systems with `source: dataset` take the candidate summaries stored in the dataset: they are
// written as the run's summaries directly (no summarize tasks) and judged like any other.
async function planDatasetSystems(
  ctx: RunContext,
  { runId, spec, docs }: { runId: string; spec: BenchmarkSpec; docs: readonly RunDocument[] },
  tasksFor: (summaries: readonly SettledSummary[]) => NewTask[],
): Promise<DatasetSystemsPlan> {
  const plan: DatasetSystemsPlan = { expected: 0, tasks: [], error: null };
  const settled: SettledSummary[] = [];
  const entries = spec.systems.flatMap((s, i) =>
    s.source === 'dataset' ? [{ s: s as DatasetSystemSpec, i }] : [],
  );
  if (entries.length === 0) return plan;
  const generated = new Set(spec.systems.filter((s) => s.source === undefined).map((s) => s.name));
  const claimed = new Map<string, string>();
  const rows: QueryDeepPartialEntity<SummaryEntity>[] = [];
  for (const { s, i } of entries) {
    const found = new Set<string>();
    for (const doc of docs) {
      for (const c of datasetSummaries(doc)) {
        if (s.only && !s.only.includes(c.system)) continue;
        found.add(c.system);
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(c.system)) {
          plan.error = `systems[${i}] (${s.name}): dataset system name "${c.system}" cannot name a run system (letters, digits, ".", "_", "-")`;
          return plan;
        }
        const owner = claimed.get(c.system) ?? (generated.has(c.system) ? 'a system of the spec' : undefined);
        if (owner !== undefined && owner !== s.name) {
          plan.error = `systems[${i}] (${s.name}): dataset system "${c.system}" clashes with ${owner}; rename the spec's system or use "only"`;
          return plan;
        }
        claimed.set(c.system, s.name);
        plan.expected++;
        const sid = summaryId(runId, c.system, doc.id);
        rows.push({
          id: sid,
          runId,
          system: c.system,
          documentId: doc.id,
          text: c.summary,
          finalStep: 'dataset',
          producer: `dataset:${c.system}`,
        });
        settled.push({ id: sid, system: c.system, documentId: doc.id, text: c.summary });
      }
    }
    const missing = (s.only ?? []).filter((name) => !found.has(name));
    if (missing.length || found.size === 0) {
      plan.error = `systems[${i}] (${s.name}): ${
        found.size === 0
          ? 'the datasets hold no candidate summaries (source: dataset needs a summeval-op dataset)'
          : `no summaries of ${missing.map((m) => `"${m}"`).join(', ')} in the datasets`
      }`;
      return plan;
    }
  }
  plan.tasks = tasksFor(settled);
  await insertSourceSummaries(ctx.db, rows);
  return plan;
}

export const datasetSource: SystemSource = {
  source: 'dataset',
  schema: datasetSystemSpec,
  planStart: planDatasetSystems,
};
