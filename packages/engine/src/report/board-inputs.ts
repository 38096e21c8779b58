import { toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { systemUsageRows } from '../stores/ledger.store.js';
import { systemsDocumentValueRows } from '../stores/metric-values.store.js';

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
  const rows = await systemsDocumentValueRows(db, runId, metrics, systems);
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
  const rows = await systemUsageRows(db, runId);
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
