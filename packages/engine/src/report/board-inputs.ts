import { toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { RESULT_CALLS_SQL } from '../queries/run-queries.js';

// Per-document values of a run: metric -> system -> document id -> value.
export type DocumentValues = ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;

// What a system's results used from the ledger (its summaries and their judgments), each call
// once at the model's prices: the same figures however the run's tasks interleaved.
export interface SystemUsage {
  calls: number;
  tokensIn: number;
  // Output tokens, reasoning included.
  tokensOut: number;
  tokensCached: number;
  tokensReasoning: number;
  costUsd: number;
}

export const noUsage = (): SystemUsage => ({
  calls: 0,
  tokensIn: 0,
  tokensOut: 0,
  tokensCached: 0,
  tokensReasoning: 0,
  costUsd: 0,
});

// The per-document values of the given metrics (the leaderboards' ranking metrics) of the given
// systems (their rows) in one read: other rows of the run are never fetched.
export async function loadDocumentValues(
  db: DataSource,
  runId: string,
  metrics: readonly string[],
  systems: readonly string[],
): Promise<DocumentValues> {
  const out = new Map<string, Map<string, Map<string, number>>>();
  if (metrics.length === 0 || systems.length === 0) return out;
  const rows: { system: string; document_id: string; metric: string; value: unknown }[] = await db.query(
    `SELECT system, document_id, metric, value FROM metric_values
      WHERE run_id = $1 AND system = ANY($3::text[]) AND document_id IS NOT NULL AND value IS NOT NULL
        AND metric = ANY($2::text[])`,
    [runId, [...new Set(metrics)], [...new Set(systems)]],
  );
  for (const r of rows) {
    const bySystem = out.get(r.metric) ?? new Map<string, Map<string, number>>();
    const values = bySystem.get(r.system) ?? new Map<string, number>();
    values.set(r.document_id, Number(r.value));
    bySystem.set(r.system, values);
    out.set(r.metric, bySystem);
  }
  return out;
}

// Each system's usage from the ledger (task ids are `<run>:<stage>:<system>:...`).
export async function loadSystemUsage(db: DataSource, runId: string): Promise<Map<string, SystemUsage>> {
  const rows: Record<string, unknown>[] = await db.query(
    `SELECT split_part(task_id, ':', 3) AS system, COALESCE(SUM(calls), 0) AS calls,
            COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout,
            COALESCE(SUM(tokens_cached), 0) AS tcached, COALESCE(SUM(tokens_reasoning), 0) AS treasoning,
            COALESCE(SUM(list_cost_usd), 0) AS cost
     FROM ${RESULT_CALLS_SQL} c GROUP BY 1`,
    [runId],
  );
  return new Map(
    rows
      .filter((r) => r.system)
      .map((r) => [
        String(r.system),
        {
          calls: toNumber(r.calls as string | number),
          tokensIn: toNumber(r.tin as string | number),
          tokensOut: toNumber(r.tout as string | number),
          tokensCached: toNumber(r.tcached as string | number),
          tokensReasoning: toNumber(r.treasoning as string | number),
          costUsd: Number(r.cost),
        },
      ]),
  );
}
