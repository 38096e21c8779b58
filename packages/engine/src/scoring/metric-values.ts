import { MetricValueEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';

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
