import { type DocumentEntity, SummaryEntity, type TaskEntity } from '@precis/db';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { dimensionTaskId, gevalStepsTaskId, summaryId } from '../ids.js';
import type { RunContext } from '../planner/run-context.js';
import type { BenchmarkSpec, DimensionsMetricSpec } from '../spec/benchmark-spec.schema.js';
import type { GevalStepsResult } from '../tasks/task-payloads.js';
import type { NewTask } from '../tasks/task-store.js';
import type { TemplateOverrides } from '../templates/run-templates.js';
import { asDimension, gevalStepsTemplate, judgeTemplate } from './judge-templates.js';
import { datasetSummaries } from './reviews.js';

export const dimensionMetricKey = (metricIndex: number) => `dimensions.${metricIndex}`;

export function dimensionMetrics(spec: BenchmarkSpec): { index: number; metric: DimensionsMetricSpec }[] {
  return spec.metrics.flatMap((m, index) => (m.name === 'dimensions' ? [{ index, metric: m }] : []));
}

// Plans the dimension-judge verify tasks of settled summaries. G-Eval: the steps task of a
// dimension comes first (once per run); its scoring tasks are planned only once it is done,
// and carry its steps. Every id is a natural key, so re-planning finds the existing tasks.
export class DimensionPlanner {
  private readonly metrics: { index: number; metric: DimensionsMetricSpec }[];
  private readonly planned = new Set<string>();
  private readonly overrides: TemplateOverrides | undefined;

  constructor(
    private readonly runId: string,
    spec: BenchmarkSpec,
    private readonly byId: ReadonlyMap<string, TaskEntity>,
  ) {
    this.metrics = dimensionMetrics(spec);
    this.overrides = spec.templateOverrides;
  }

  get active(): boolean {
    return this.metrics.length > 0;
  }

  tasksFor(system: string, documentId: string, summary: string): NewTask[] {
    const out: NewTask[] = [];
    for (const { index, metric } of this.metrics) {
      const key = dimensionMetricKey(index);
      for (const dimId of metric.dimensions) {
        const dimension = asDimension(dimId, `metrics[${index}]`);
        let steps: string[] | undefined;
        if (metric.family === 'g-eval') {
          const stepsId = gevalStepsTaskId(this.runId, key, dimension);
          const stepsTask = this.byId.get(stepsId);
          if (!stepsTask) {
            if (!this.planned.has(stepsId)) {
              this.planned.add(stepsId);
              const t = gevalStepsTemplate(dimension, this.overrides);
              out.push({
                id: stepsId,
                runId: this.runId,
                stage: 'verify',
                kind: 'geval-steps',
                payload: {
                  type: 'geval-steps',
                  metricIndex: index,
                  dimension,
                  templateId: t.id,
                  templateVersion: t.version,
                },
              });
            }
            continue;
          }
          // Failed steps leave the dimension unjudged; the score task reports it.
          if (stepsTask.status !== 'done') continue;
          steps = (stepsTask.result as GevalStepsResult).steps;
        }
        const id = dimensionTaskId(this.runId, system, documentId, key, dimension);
        if (this.byId.has(id) || this.planned.has(id)) continue;
        this.planned.add(id);
        const t = judgeTemplate(metric.family, dimension, this.overrides);
        out.push({
          id,
          runId: this.runId,
          stage: 'verify',
          kind: 'judge-dimension',
          payload: {
            type: 'judge-dimension',
            system,
            documentId,
            summaryId: summary,
            metricIndex: index,
            dimension,
            templateId: t.id,
            templateVersion: t.version,
            ...(steps ? { steps } : {}),
          },
        });
      }
    }
    return out;
  }
}

export interface DatasetSystemsPlan {
  expected: number;
  done: number;
  tasks: NewTask[];
  error: string | null;
}

// Systems with `source: dataset` take the candidate summaries stored in the dataset: they are
// written as the run's summaries directly (no summarize tasks) and judged like any other.
export async function planDatasetSystems(
  ctx: RunContext,
  runId: string,
  spec: BenchmarkSpec,
  docs: readonly Omit<DocumentEntity, 'text'>[],
  planner: DimensionPlanner,
): Promise<DatasetSystemsPlan> {
  const plan: DatasetSystemsPlan = { expected: 0, done: 0, tasks: [], error: null };
  const entries = spec.systems.flatMap((s, i) => (s.source === 'dataset' ? [{ s, i }] : []));
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
        plan.done++;
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
        plan.tasks.push(...planner.tasksFor(c.system, doc.id, sid));
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
  for (let k = 0; k < rows.length; k += 200) {
    await ctx.db
      .createQueryBuilder()
      .insert()
      .into(SummaryEntity)
      .values(rows.slice(k, k + 200))
      .orIgnore()
      .execute();
  }
  return plan;
}
