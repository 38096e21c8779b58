import {
  failedJudgeDimensionTasks,
  latestRunByIdOrName,
  metricValuesTablePresent,
  runDocumentMetricValues,
} from '@precis/engine';
import { isOpinionDimensionId, type OpinionDimensionId } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import { MetaInputError } from './errors.js';
import { failedKey, type MetricScores } from './metric-scores.js';
import { type OpinionProduct, summaryKey } from './opinion-dataset.js';

export const DIMENSION_METRIC_PREFIX = 'dimension:';

export interface JudgeScores extends MetricScores {
  runId: string;
  // Failed judgments of this dataset's summaries, left out of every mean and correlation: rows
  // whose value is null (every sample unparsed) and judge tasks that failed or died.
  failedCount: number;
  failed: ReadonlySet<string>;
}

// Judge scores of a run from metric_values: one row per (run, system, document, metric) with
// metric 'dimension:<canonical id>', system = the dataset system whose summary was judged,
// document_id = the product's documents.id, value = the judge score (null when it failed),
// produced_by = judge model and template version. `run` is a run id or a run name (latest).
export async function loadJudgeScores(
  ds: DataSource,
  run: string,
  products: readonly OpinionProduct[],
): Promise<JudgeScores> {
  const [table] = await metricValuesTablePresent(ds);
  if (!table?.present) {
    throw new MetaInputError(
      'this database has no metric_values table yet; judge scores come from a judge run (`precis run`), run the migrations first',
    );
  }
  const runs = await latestRunByIdOrName(ds, run);
  if (runs.length === 0)
    throw new MetaInputError(`no run with id or name "${run}" (judge:<run> takes a run id or name)`);
  const runId = runs[0]!.id;
  const rows = await runDocumentMetricValues(ds, runId, `${DIMENSION_METRIC_PREFIX}%`);
  const byDocument = new Map(products.map((p) => [p.documentId, p.id]));
  const scores = new Map<string, Partial<Record<OpinionDimensionId, number>>>();
  const producers = new Set<string>();
  const failed = new Set<string>();
  for (const row of rows) {
    const dim = row.metric.slice(DIMENSION_METRIC_PREFIX.length);
    const product = byDocument.get(row.document_id);
    if (!isOpinionDimensionId(dim) || product === undefined) continue;
    const key = summaryKey(product, row.system);
    if (row.value === null) {
      failed.add(failedKey(key, dim));
      continue;
    }
    const entry = scores.get(key) ?? {};
    entry[dim] = Number(row.value);
    scores.set(key, entry);
    if (row.produced_by) producers.add(row.produced_by);
  }
  // A judge task that failed or died wrote no value at all: its payload says what it judged.
  const dead = await failedJudgeDimensionTasks(ds, runId);
  for (const t of dead) {
    const product = byDocument.get(t.document_id);
    if (product !== undefined && isOpinionDimensionId(t.dimension))
      failed.add(failedKey(summaryKey(product, t.system), t.dimension));
  }
  if (scores.size === 0) {
    throw new MetaInputError(
      `run "${run}" has no '${DIMENSION_METRIC_PREFIX}<dimension>' scores for the summaries of this dataset`,
    );
  }
  const judge = producers.size > 0 ? [...producers].sort().join(' + ') : 'unnamed judge';
  const failures = failed.size ? `; ${failed.size} judgments failed` : '';
  return {
    runId,
    failedCount: failed.size,
    failed,
    scores,
    producedBy: `judge run ${runId}: ${judge}${failures}`,
  };
}
