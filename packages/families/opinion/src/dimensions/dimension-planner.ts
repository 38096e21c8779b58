import type { TaskEntity } from '@precis/db';
import type { BenchmarkSpec, NewTask, TemplateOverrides } from '@precis/engine/family';
import { dimensionTaskId, gevalStepsTaskId } from '../ids.js';
import type { GevalStepsResult } from '../payloads.js';
import { type DimensionsMetricSpec, isDimensionsMetric } from './dimensions-spec.js';
import { asDimension, gevalStepsTemplate, judgeTemplate } from './judge-templates.js';

export const dimensionMetricKey = (metricIndex: number) => `dimensions.${metricIndex}`;

export function dimensionMetrics(spec: BenchmarkSpec): { index: number; metric: DimensionsMetricSpec }[] {
  return spec.metrics.flatMap((m, index) => (isDimensionsMetric(m) ? [{ index, metric: m }] : []));
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
