import type { EntityManager } from 'typeorm';
import { storedKeys, upsertRows } from './portable.store.js';
import { PortableFileError } from './portable-error.js';
import type { PortableTable } from './portable-format.js';
import type { TableColumn } from './table-columns.js';

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
        const n = await upsertRows(this.em, table, this.columns, names, rows);
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
    const stored = await storedKeys(this.em, table, this.columns, rows);
    if (stored.length === 0) return rows;
    const there = new Set(stored.map((r) => keyOf(table, r)));
    return rows.filter((r) => !there.has(keyOf(table, r)));
  }
}

const keyOf = (table: PortableTable, row: Row) => JSON.stringify(table.key.map((k) => row[k]));
