import type { EntityManager } from 'typeorm';
import { PortableFileError } from './portable-error.js';
import type { PortableTable } from './portable-format.js';
import { quoteIdent, type TableColumn } from './table-columns.js';

type Row = Record<string, unknown>;

// Rows per statement and characters per statement (the rows travel as one jsonb parameter).
const MAX_ROWS = 500;
const MAX_CHARS = 4_000_000;

// Collects the rows of one table and writes them in multi-row upserts keyed on the table's
// primary key: a row already there is kept (or, per the table's rule, attached or overwritten).
export class TableWriter {
  private rows: Row[] = [];
  private keys = '';
  private chars = 0;
  private firstLine = 0;
  private lastLine = 0;
  // Rows written or changed, per table.
  readonly changed: Record<string, number> = {};

  constructor(
    private readonly em: EntityManager,
    private readonly file: string,
  ) {}

  private table: PortableTable | null = null;
  private columns: TableColumn[] = [];

  async add(
    table: PortableTable,
    columns: TableColumn[],
    row: Row,
    line: number,
    size: number,
  ): Promise<void> {
    const keys = Object.keys(row).join(',');
    if (table !== this.table || keys !== this.keys) await this.flush();
    if (this.rows.length === 0) {
      this.table = table;
      this.columns = columns;
      this.keys = keys;
      this.firstLine = line;
    }
    this.rows.push(row);
    this.lastLine = line;
    this.chars += size;
    if (this.rows.length >= MAX_ROWS || this.chars >= MAX_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0 || !this.table) return;
    const table = this.table;
    const names = Object.keys(this.rows[0]!);
    try {
      const rows = await this.notThereYet(table, this.rows);
      if (rows.length > 0) {
        const [result] = await this.em.query(upsertSql(table, this.columns, names), [JSON.stringify(rows)]);
        const n = Number(result.n);
        if (n > 0) this.changed[table.name] = (this.changed[table.name] ?? 0) + n;
      }
    } catch (err) {
      const range = this.firstLine === this.lastLine ? this.firstLine : `${this.firstLine}-${this.lastLine}`;
      throw new PortableFileError(
        this.file,
        range,
        `the ${table.name} rows there cannot be written: ${(err as Error).message}`,
      );
    }
    this.rows = [];
    this.chars = 0;
  }

  // The rows whose key this database lacks (or, for the ledger, holds without a run): a file
  // imported again sends its keys only, not its rows.
  private async notThereYet(table: PortableTable, rows: Row[]): Promise<Row[]> {
    if (table.onConflict === 'overwrite') return rows;
    const types = new Map(this.columns.map((c) => [c.name, c.type]));
    const keys = table.key.map(quoteIdent);
    const defs = table.key.map((k) => `${quoteIdent(k)} ${types.get(k)}`).join(', ');
    const stored: Row[] = await this.em.query(
      `SELECT ${keys.map((k) => `t.${k}`).join(', ')} FROM ${quoteIdent(table.name)} t
        JOIN jsonb_to_recordset($1::jsonb) AS x(${defs}) ON ${keys.map((k) => `t.${k} = x.${k}`).join(' AND ')}
        ${table.onConflict === 'reattach' ? 'WHERE t.run_id IS NOT NULL' : ''}`,
      [JSON.stringify(rows.map((r) => Object.fromEntries(table.key.map((k) => [k, r[k]]))))],
    );
    if (stored.length === 0) return rows;
    const there = new Set(stored.map((r) => keyOf(table, r)));
    return rows.filter((r) => !there.has(keyOf(table, r)));
  }
}

const keyOf = (table: PortableTable, row: Row) => JSON.stringify(table.key.map((k) => row[k]));

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
