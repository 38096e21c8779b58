import { isOpinionDimensionId, type OpinionDimensionId } from '@precis/prompts';
import type { DataSource } from 'typeorm';
import { MetaInputError } from './errors.js';
import type { MetricScores } from './metric-scores.js';
import { type OpinionProduct, summaryKey } from './opinion-dataset.js';

export const DIMENSION_METRIC_PREFIX = 'dimension:';

interface MetricValueRow {
  system: string;
  document_id: string;
  metric: string;
  value: number | string | null;
  produced_by: string | null;
}

export interface JudgeScores extends MetricScores {
  runId: string;
  // Rows whose value is null (every sample unparsed): explicit failures, left out.
  failed: number;
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
  const [table] = (await ds.query(`SELECT to_regclass('public.metric_values') IS NOT NULL AS present`)) as {
    present: boolean;
  }[];
  if (!table?.present) {
    throw new MetaInputError(
      'this database has no metric_values table yet; judge scores come from a judge run (`precis run`), run the migrations first',
    );
  }
  const runs = (await ds.query(
    `SELECT id FROM runs WHERE id::text = $1 OR name = $1 ORDER BY created_at DESC LIMIT 1`,
    [run],
  )) as { id: string }[];
  if (runs.length === 0)
    throw new MetaInputError(`no run with id or name "${run}" (judge:<run> takes a run id or name)`);
  const runId = runs[0]!.id;
  const rows = (await ds.query(
    `SELECT system, document_id, metric, value, produced_by FROM metric_values
      WHERE run_id = $1 AND document_id IS NOT NULL AND metric LIKE $2
      ORDER BY system, document_id, metric`,
    [runId, `${DIMENSION_METRIC_PREFIX}%`],
  )) as MetricValueRow[];
  const byDocument = new Map(products.map((p) => [p.documentId, p.id]));
  const scores = new Map<string, Partial<Record<OpinionDimensionId, number>>>();
  const producers = new Set<string>();
  let failed = 0;
  for (const row of rows) {
    const dim = row.metric.slice(DIMENSION_METRIC_PREFIX.length);
    const product = byDocument.get(row.document_id);
    if (!isOpinionDimensionId(dim) || product === undefined) continue;
    if (row.value === null) {
      failed++;
      continue;
    }
    const key = summaryKey(product, row.system);
    const entry = scores.get(key) ?? {};
    entry[dim] = Number(row.value);
    scores.set(key, entry);
    if (row.produced_by) producers.add(row.produced_by);
  }
  if (scores.size === 0) {
    throw new MetaInputError(
      `run "${run}" has no '${DIMENSION_METRIC_PREFIX}<dimension>' scores for the summaries of this dataset`,
    );
  }
  const judge = producers.size > 0 ? [...producers].sort().join(' + ') : 'unnamed judge';
  return { runId, failed, scores, producedBy: `judge run ${runId}: ${judge}` };
}
