import type { EntityManager } from 'typeorm';
import { runColumnsDiffering } from './portable.store.js';
import type { TableColumn } from './table-columns.js';

// The columns in which the stored run differs from the file's row (compared as typed values:
// a timestamp to the microsecond, a spec as jsonb), [] when it is the same, null when absent.
export async function runDifferences(
  em: EntityManager,
  columns: TableColumn[],
  row: Record<string, unknown>,
): Promise<string[] | null> {
  const found = await runColumnsDiffering(em, columns, row);
  if (!found) return null;
  return columns.filter((c) => found[c.name] === true).map((c) => c.name);
}
