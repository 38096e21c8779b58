import { MetricValueEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { metricValueId } from '../ids.js';

// Writes computed metric values in one transaction, upserted by their natural-key id, so a
// re-scored run replaces its numbers instead of duplicating them.
export async function upsertMetricValues(
  db: DataSource,
  values: Partial<MetricValueEntity>[],
): Promise<void> {
  await db.transaction(async (m) => {
    for (let i = 0; i < values.length; i += 200) {
      await m
        .createQueryBuilder()
        .insert()
        .into(MetricValueEntity)
        .values(values.slice(i, i + 200) as QueryDeepPartialEntity<MetricValueEntity>[])
        .orUpdate(['value', 'details', 'produced_by'], ['id'])
        .execute();
    }
  });
}

// A family's leaderboard rows as run-level metric values: one per (system, metric), the whole
// row in details, credited to the row's judge.
export function upsertBoardRows<R extends { system: string; metric: string; judge: string }>(
  db: DataSource,
  runId: string,
  rows: readonly R[],
  value: (row: R) => number | null,
): Promise<void> {
  return upsertMetricValues(
    db,
    rows.map((r) => ({
      id: metricValueId(runId, r.system, null, r.metric),
      runId,
      system: r.system,
      documentId: null,
      metric: r.metric,
      value: value(r),
      details: r as unknown as Record<string, unknown>,
      producedBy: r.judge,
    })),
  );
}
