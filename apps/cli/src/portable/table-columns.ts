import type { EntityManager } from 'typeorm';
import { columnRows } from './portable.store.js';

export { quoteIdent } from './portable.store.js';

export interface TableColumn {
  name: string;
  // As PostgreSQL spells it, e.g. 'numeric(20,10)', 'timestamp with time zone'.
  type: string;
  // NOT NULL without a default: a row must give it.
  required: boolean;
}

// A table's columns as the database has them (not as this build's entities say): an export takes
// every column there is, an import knows which of a file's fields this database can hold.
export async function tableColumns(em: EntityManager, table: string): Promise<TableColumn[]> {
  const rows = await columnRows(em, table);
  if (rows.length === 0) throw new Error(`table ${table} is missing from this database`);
  return rows.map((r) => ({ name: r.name, type: r.type, required: r.notnull && !r.hasdef }));
}

// Exact decimals and 64-bit integers travel as text: a JSON number would round them.
export const exportedAsText = (type: string): boolean => /^(numeric|bigint)/.test(type);
