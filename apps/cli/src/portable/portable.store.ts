import type { EntityManager, QueryRunner } from 'typeorm';
import type { PortableTable } from './portable-format.js';
import type { TableColumn } from './table-columns.js';

// The SQL of `precis runs export` / `import`: datasets, the catalog, and statements built from a
// table's columns as the database has them (names quoted, types from format_type).

type Row = Record<string, unknown>;

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export interface StoredDataset {
  id: string;
  name: string;
  kind: string;
  source_sha256: string;
}

// The datasets stored under the id or the name, the one with that id first.
export async function datasetsByIdOrName(
  em: EntityManager,
  id: unknown,
  name: unknown,
): Promise<StoredDataset[]> {
  return em.query(
    'SELECT id, name, kind, source_sha256 FROM datasets WHERE id = $1 OR name = $2 ORDER BY (id = $1) DESC',
    [id, name],
  );
}

// The dataset stored under a name (undefined when none).
export async function datasetIdByName(em: EntityManager, name: string): Promise<{ id: string } | undefined> {
  const [stored] = await em.query('SELECT id FROM datasets WHERE name = $1', [name]);
  return stored;
}

// The datasets of the given names, by name.
export async function datasetsByName(
  qr: QueryRunner,
  names: string[],
): Promise<{ id: string; name: string }[]> {
  return qr.query('SELECT id, name FROM datasets WHERE name = ANY($1::text[]) ORDER BY name', [names]);
}

// A table's columns from the catalog, in order ([] when the table is missing).
export async function columnRows(
  em: EntityManager,
  table: string,
): Promise<{ name: string; type: string; notnull: boolean; hasdef: boolean }[]> {
  return em.query(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS notnull, a.atthasdef AS hasdef
       FROM pg_attribute a
      WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [table],
  );
}

// Per column, whether the stored run differs from the row (compared as typed values); undefined
// when the run is absent.
export async function runColumnsDiffering(
  em: EntityManager,
  columns: TableColumn[],
  row: Row,
): Promise<Record<string, boolean> | undefined> {
  const defs = columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
  const checks = columns
    .map((c) => `(r.${quoteIdent(c.name)} IS DISTINCT FROM x.${quoteIdent(c.name)}) AS ${quoteIdent(c.name)}`)
    .join(', ');
  const [found]: Record<string, boolean>[] = await em.query(
    `SELECT ${checks} FROM runs r, jsonb_to_record($1::jsonb) AS x(${defs}) WHERE r.id = $2`,
    [JSON.stringify(row), row.id],
  );
  return found;
}

// Opens a cursor over a table's rows rendered as JSON text (column `line`).
export async function declareRowCursor(
  qr: QueryRunner,
  cursor: string,
  query: { select: string; table: string; where: string; order: string },
): Promise<void> {
  await qr.query(
    `DECLARE ${cursor} NO SCROLL CURSOR FOR
       SELECT row_to_json(x)::text AS line FROM (SELECT ${query.select} FROM ${quoteIdent(query.table)}
       WHERE ${query.where} ORDER BY ${query.order}) x`,
  );
}

// The next `rows` lines of a cursor ([] at its end).
export async function fetchCursor(
  qr: QueryRunner,
  cursor: string,
  rows: number,
): Promise<{ line: string }[]> {
  return qr.query(`FETCH ${rows} FROM ${cursor}`);
}

export async function closeCursor(qr: QueryRunner, cursor: string): Promise<void> {
  await qr.query(`CLOSE ${cursor}`);
}

// The keys among `rows` that the table holds already (for 'reattach', only rows with a run).
export async function storedKeys(
  em: EntityManager,
  table: PortableTable,
  columns: TableColumn[],
  rows: Row[],
): Promise<Row[]> {
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const keys = table.key.map(quoteIdent);
  const defs = table.key.map((k) => `${quoteIdent(k)} ${types.get(k)}`).join(', ');
  return em.query(
    `SELECT ${keys.map((k) => `t.${k}`).join(', ')} FROM ${quoteIdent(table.name)} t
        JOIN jsonb_to_recordset($1::jsonb) AS x(${defs}) ON ${keys.map((k) => `t.${k} = x.${k}`).join(' AND ')}
        ${table.onConflict === 'reattach' ? 'WHERE t.run_id IS NOT NULL' : ''}`,
    [JSON.stringify(rows.map((r) => Object.fromEntries(table.key.map((k) => [k, r[k]]))))],
  );
}

// Upserts rows (all with the fields `names`) on the table's primary key; how many it wrote or changed.
export async function upsertRows(
  em: EntityManager,
  table: PortableTable,
  columns: TableColumn[],
  names: string[],
  rows: Row[],
): Promise<number> {
  const [result] = await em.query(upsertSql(table, columns, names), [JSON.stringify(rows)]);
  return Number(result.n);
}

// INSERT ... SELECT from the rows given as one jsonb array, typed by this database's columns,
// ON CONFLICT on the primary key; returns how many rows it wrote or changed.
function upsertSql(table: PortableTable, columns: TableColumn[], names: string[]): string {
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const list = names.map(quoteIdent).join(', ');
  const defs = names.map((n) => `${quoteIdent(n)} ${types.get(n)}`).join(', ');
  const target = quoteIdent(table.name);
  return `WITH written AS (
      INSERT INTO ${target} (${list})
      SELECT ${list} FROM jsonb_to_recordset($1::jsonb) AS x(${defs})
      ON CONFLICT (${table.key.map(quoteIdent).join(', ')}) ${conflictAction(table, names)}
      RETURNING 1)
    SELECT count(*)::int AS n FROM written`;
}

function conflictAction(table: PortableTable, names: string[]): string {
  const target = quoteIdent(table.name);
  if (table.onConflict === 'reattach')
    return `DO UPDATE SET run_id = EXCLUDED.run_id WHERE ${target}.run_id IS NULL`;
  const values = names.filter((n) => !table.key.includes(n)).map(quoteIdent);
  if (table.onConflict === 'keep' || values.length === 0) return 'DO NOTHING';
  const set = values.map((v) => `${v} = EXCLUDED.${v}`).join(', ');
  const stored = values.map((v) => `${target}.${v}`).join(', ');
  const given = values.map((v) => `EXCLUDED.${v}`).join(', ');
  return `DO UPDATE SET ${set} WHERE (${stored}) IS DISTINCT FROM (${given})`;
}
