import type { DataSource } from 'typeorm';
import { buildSampleQuery, distinctSampleColumn, type SampleQuery } from '../queries/sample-query.js';

// Reads of metric_values: the per-summary (per-document) values every family's scorer writes.

export interface DocumentValueRow {
  run_id: string;
  system: string;
  document_id: string;
  metric: string;
  value: number;
  produced_by: string;
}

// Every scored per-document value of the given runs.
export async function runsDocumentValueRows(
  db: DataSource,
  runIds: readonly string[],
): Promise<DocumentValueRow[]> {
  return db.query(
    `SELECT run_id, system, document_id, metric, value, produced_by FROM metric_values
      WHERE run_id = ANY($1::uuid[]) AND document_id IS NOT NULL AND value IS NOT NULL`,
    [runIds],
  );
}

// The scored per-document values of the given metrics of the given systems (distinct each).
export async function systemsDocumentValueRows(
  db: DataSource,
  runId: string,
  metrics: readonly string[],
  systems: readonly string[],
): Promise<{ system: string; document_id: string; metric: string; value: unknown }[]> {
  return db.query(
    `SELECT system, document_id, metric, value FROM metric_values
      WHERE run_id = $1 AND system = ANY($3::text[]) AND document_id IS NOT NULL AND value IS NOT NULL
        AND metric = ANY($2::text[])`,
    [runId, [...new Set(metrics)], [...new Set(systems)]],
  );
}

// Every value of one document in a run, failed ones included, by system and metric.
export async function documentValueRows(
  db: DataSource,
  runId: string,
  documentId: string,
): Promise<
  {
    system: string;
    metric: string;
    value: number | string | null;
    produced_by: string;
    failure: string | null;
  }[]
> {
  return db.query(
    `SELECT system, metric, value, produced_by, details->>'failure' AS failure FROM metric_values
       WHERE run_id = $1 AND document_id = $2 ORDER BY system, metric`,
    [runId, documentId],
  );
}

export interface SamplePageRows {
  // The values matching the filters, in all.
  count: string | number;
  rows: Record<string, unknown>[];
  // Every system and metric with a per-summary value in the run.
  systems: string[];
  metrics: string[];
}

// One page of a run's per-summary values (sample-query.ts builds its SQL), with the count of all
// that match and the run's systems and metrics.
export async function samplePageRows(db: DataSource, runId: string, q: SampleQuery): Promise<SamplePageRows> {
  const { count, page } = buildSampleQuery(runId, q);
  const [[counted], rows, systems, metrics] = await Promise.all([
    db.query(count.text, count.params) as Promise<{ n: string | number }[]>,
    db.query(page.text, page.params) as Promise<Record<string, unknown>[]>,
    db.query(distinctSampleColumn('system'), [runId]) as Promise<{ x: string }[]>,
    db.query(distinctSampleColumn('metric'), [runId]) as Promise<{ x: string }[]>,
  ]);
  return { count: counted!.n, rows, systems: systems.map((r) => r.x), metrics: metrics.map((r) => r.x) };
}

// Whether this database has a metric_values table yet (a database that was never migrated has not).
export async function metricValuesTablePresent(db: DataSource): Promise<{ present: boolean }[]> {
  return db.query(`SELECT to_regclass('public.metric_values') IS NOT NULL AS present`);
}

export interface MetricValueRow {
  system: string;
  document_id: string;
  metric: string;
  value: number | string | null;
  produced_by: string | null;
}

// A run's per-document values of the metrics named like `pattern` (SQL LIKE), failed ones included.
export async function runDocumentMetricValues(
  db: DataSource,
  runId: string,
  pattern: string,
): Promise<MetricValueRow[]> {
  return db.query(
    `SELECT system, document_id, metric, value, produced_by FROM metric_values
      WHERE run_id = $1 AND document_id IS NOT NULL AND metric LIKE $2
      ORDER BY system, document_id, metric`,
    [runId, pattern],
  );
}
