import { inTransaction } from '@precis/db';
import { setRunCostLimit } from '@precis/engine';
import type { DataSource, EntityManager } from 'typeorm';
import { DatasetConflict, IdRemap, matchDataset } from './dataset-match.js';
import { type Line, readLines } from './line-reader.js';
import { PortableFileError } from './portable-error.js';
import { PORTABLE_TABLES, type PortableHeader, type PortableTable } from './portable-format.js';
import { readHeader, readTrailer } from './portable-lines.js';
import { fieldProblem } from './row-checks.js';
import { runDifferences } from './run-match.js';
import { type TableColumn, tableColumns } from './table-columns.js';
import { TableWriter } from './table-writer.js';

type Row = Record<string, unknown>;

export interface ImportSummary {
  runId: string;
  name: string;
  // Rows written or changed per table; none when the database held the run as the file has it.
  changed: Record<string, number>;
  // Rows the file holds per table.
  rows: Record<string, number>;
  // Datasets this database already held from the same file: the run now refers to its copies.
  sharedDatasets: string[];
}

// Loads a run log into the database in one transaction: all of it or, on any problem, nothing.
// Rows already there are kept, so importing a file twice changes nothing the second time.
// `file` names the file in errors (as the user gave it); `path` is where it is read.
export async function importRun(
  ds: DataSource,
  file: string,
  target: string,
  path = file,
): Promise<ImportSummary> {
  return inTransaction(ds, async (em) => {
    const importer = new RunImporter(em, file, target);
    let last = 0;
    for await (const line of readLines(file, path)) {
      last = line.no;
      await importer.line(line);
    }
    return importer.finish(last);
  });
}

class RunImporter {
  private header: PortableHeader | null = null;
  private ended = false;
  private tableIndex = 0;
  private readonly rows: Record<string, number> = {};
  private readonly columns = new Map<string, Map<string, TableColumn>>();
  private readonly writer: TableWriter;
  private readonly remap = new IdRemap();
  private readonly sharedDatasets: string[] = [];
  private readonly skipDatasets = new Set<string>();
  private run: { state: 'new' | 'same'; name: string; costLimit: unknown } | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly file: string,
    private readonly target: string,
  ) {
    this.writer = new TableWriter(em, file);
  }

  async line({ no, text }: Line): Promise<void> {
    if (no === 1) {
      this.header = readHeader(this.file, text);
      return;
    }
    if (this.ended)
      throw this.error(no, 'a line after the closing line: the file is damaged; export the run again');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw this.error(no, `not JSON (${(err as Error).message}): the file is damaged; export the run again`);
    }
    const obj = (value ?? {}) as Row;
    if ('end' in obj) {
      await this.writer.flush();
      readTrailer(this.file, no, obj, this.rows);
      this.ended = true;
      return;
    }
    const table = this.tableOf(no, obj);
    this.rows[table.name] = (this.rows[table.name] ?? 0) + 1;
    const row = await this.checkRow(no, table, obj.row);
    if (await this.keepsOwnCopy(no, table, row)) return;
    await this.writer.add(
      table,
      [...this.columns.get(table.name)!.values()],
      this.remap.apply(row),
      no,
      text.length,
    );
  }

  async finish(lastLine: number): Promise<ImportSummary> {
    if (!this.header) throw new PortableFileError(this.file, null, 'the file is empty: it holds no run');
    if (!this.ended)
      throw this.error(
        lastLine,
        'the file ends before its closing line: it is truncated (copy it again, or export the run again)',
      );
    if (!this.run) throw this.error(lastLine, `the file holds no row of run ${this.header.run}`);
    if (this.run.state === 'new' && this.run.costLimit !== null && this.run.costLimit !== undefined)
      await setRunCostLimit(this.em, this.header.run, this.run.costLimit);
    return {
      runId: this.header.run,
      name: this.run.name,
      changed: this.writer.changed,
      rows: this.rows,
      sharedDatasets: this.sharedDatasets,
    };
  }

  private tableOf(no: number, obj: Row): PortableTable {
    if (typeof obj.table !== 'string' || !('row' in obj))
      throw this.error(no, 'neither a row ({"table", "row"}) nor the closing line: the file is damaged');
    const index = PORTABLE_TABLES.findIndex((t) => t.name === obj.table);
    if (index < 0)
      throw this.error(
        no,
        `unknown table "${obj.table}": the file may come from a newer Precis; upgrade to import it`,
      );
    if (index < this.tableIndex)
      throw this.error(
        no,
        `a row of ${obj.table} after those of ${PORTABLE_TABLES[this.tableIndex]!.name}: the file is out of order`,
      );
    this.tableIndex = index;
    return PORTABLE_TABLES[index]!;
  }

  // The row's fields against this database's columns: each known, of its type, none missing.
  private async checkRow(no: number, table: PortableTable, value: unknown): Promise<Row> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw this.error(no, `the row of ${table.name} is not an object`);
    const row = value as Row;
    const columns = await this.columnsOf(table.name);
    for (const [field, v] of Object.entries(row)) {
      const column = columns.get(field);
      if (!column)
        throw this.error(
          no,
          'this database has no such column: the file may come from a newer Precis; upgrade to import it',
          `${table.name}.${field}`,
        );
      const problem = fieldProblem(column, v);
      if (problem) throw this.error(no, problem, `${table.name}.${field}`);
    }
    for (const column of columns.values())
      if (column.required && !(column.name in row))
        throw this.error(no, 'missing, but this column needs a value', `${table.name}.${column.name}`);
    const runId = this.header!.run;
    if (table.runColumn && row[table.runColumn] !== runId)
      throw this.error(
        no,
        `is ${JSON.stringify(row[table.runColumn])}, but the file is of run ${runId} (line 1)`,
        `${table.name}.${table.runColumn}`,
      );
    return row;
  }

  // True for a row this database keeps its own copy of: the run as it stands here, a dataset
  // (and its documents) it imported itself from the same file.
  private async keepsOwnCopy(no: number, table: PortableTable, row: Row): Promise<boolean> {
    try {
      if (table.name === 'runs') return await this.runRow(no, row);
      if (table.name === 'datasets') return await this.datasetRow(row);
      if (this.skipDatasets.has(String(row.dataset_id)) && table.name === 'documents')
        return this.remap.mapsDocument(row);
      if (table.name === 'chunks') return this.remap.mapsChunk(row);
      return false;
    } catch (err) {
      if (err instanceof DatasetConflict) throw this.error(no, err.message);
      throw err;
    }
  }

  private async runRow(no: number, row: Row): Promise<boolean> {
    const columns = [...this.columns.get('runs')!.values()].filter((c) => c.name in row);
    const differences = await runDifferences(this.em, columns, row);
    if (differences === null) {
      // Its cost limit is set once its ledger is in: the limit's trigger would recount it.
      this.run = { state: 'new', name: String(row.name), costLimit: row.cost_limit_usd };
      row.cost_limit_usd = null;
      return false;
    }
    if (differences.length === 0) {
      this.run = { state: 'same', name: String(row.name), costLimit: null };
      return true;
    }
    throw this.error(
      no,
      `run ${row.id} already exists in ${this.target} with different content (${differences.join(', ')} ${differences.length === 1 ? 'differs' : 'differ'}): ` +
        `to replace it, delete it there first (\`precis runs rm ${row.id}\`) and import again, or import into another database`,
    );
  }

  private async datasetRow(row: Row): Promise<boolean> {
    const match = await matchDataset(this.em, row, this.target);
    if (match === 'insert') return false;
    if (match === 'remap') {
      await this.remap.addDataset(this.em, String(row.id), String(row.name));
      this.sharedDatasets.push(String(row.name));
    }
    this.skipDatasets.add(String(row.id));
    return true;
  }

  private async columnsOf(table: string): Promise<Map<string, TableColumn>> {
    let columns = this.columns.get(table);
    if (!columns) {
      columns = new Map((await tableColumns(this.em, table)).map((c) => [c.name, c]));
      this.columns.set(table, columns);
    }
    return columns;
  }

  private error(line: number, problem: string, field?: string): PortableFileError {
    return new PortableFileError(this.file, line, problem, field);
  }
}
