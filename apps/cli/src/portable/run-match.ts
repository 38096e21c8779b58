import type { EntityManager } from 'typeorm';
import { quoteIdent, type TableColumn } from './table-columns.js';

// The columns in which the stored run differs from the file's row (compared as typed values:
// a timestamp to the microsecond, a spec as jsonb), [] when it is the same, null when absent.
export async function runDifferences(
  em: EntityManager,
  columns: TableColumn[],
  row: Record<string, unknown>,
): Promise<string[] | null> {
  const defs = columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
  const checks = columns
    .map((c) => `(r.${quoteIdent(c.name)} IS DISTINCT FROM x.${quoteIdent(c.name)}) AS ${quoteIdent(c.name)}`)
    .join(', ');
  const [found]: Record<string, boolean>[] = await em.query(
    `SELECT ${checks} FROM runs r, jsonb_to_record($1::jsonb) AS x(${defs}) WHERE r.id = $2`,
    [JSON.stringify(row), row.id],
  );
  if (!found) return null;
  return columns.filter((c) => found[c.name] === true).map((c) => c.name);
}
