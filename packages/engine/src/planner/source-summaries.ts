import { SummaryEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';

// Writes a system source's summaries (SystemSource.planStart) in chunks; a summary already
// written (a resumed run) is left as it is.
export async function insertSourceSummaries(
  db: DataSource,
  rows: readonly QueryDeepPartialEntity<SummaryEntity>[],
): Promise<void> {
  for (let k = 0; k < rows.length; k += 200)
    await db
      .createQueryBuilder()
      .insert()
      .into(SummaryEntity)
      .values(rows.slice(k, k + 200))
      .orIgnore()
      .execute();
}

// A bounded memo, per database, of loads that never change (e.g. an imported document's parts):
// the oldest entry goes first; a failed load is forgotten so the next call tries again.
export function boundedMemo<T>(
  max: number,
  load: (db: DataSource, key: string) => Promise<T>,
): (db: DataSource, key: string) => Promise<T> {
  const caches = new WeakMap<DataSource, Map<string, Promise<T>>>();
  return (db, key) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new Map();
      caches.set(db, cache);
    }
    let hit = cache.get(key);
    if (!hit) {
      hit = load(db, key);
      const own = cache;
      hit.catch(() => own.delete(key));
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(key, hit);
    }
    return hit;
  };
}
