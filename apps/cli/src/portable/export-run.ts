import { createWriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { RunEntity } from '@precis/db';
import type { DataSource, QueryRunner } from 'typeorm';
import { closeCursor, datasetsByName, declareRowCursor, fetchCursor } from './portable.store.js';
import {
  PORTABLE_FORMAT,
  PORTABLE_TABLES,
  PORTABLE_VERSION,
  type PortableHeader,
  type PortableTable,
  type PortableTrailer,
} from './portable-format.js';
import { exportedAsText, quoteIdent, tableColumns } from './table-columns.js';

export interface ExportSummary {
  file: string;
  bytes: number;
  rows: Record<string, number>;
  // Datasets the spec names that this database no longer holds (their documents are not in the file).
  missingDatasets: string[];
}

// Rows fetched per round trip: a 100,000-call ledger streams through in pages, never whole.
const FETCH_ROWS = 500;

// Writes the run and everything its report reads to `file` (gzip'd JSON lines), from one
// consistent snapshot; the file appears only once complete.
export async function exportRun(
  ds: DataSource,
  run: RunEntity,
  file: string,
  precisVersion: string,
): Promise<ExportSummary> {
  if (run.status === 'pending' || run.status === 'running')
    throw new Error(
      `run ${run.id} is ${run.status}: export it once it has ended (or cancel it: \`precis runs cancel ${run.id}\`)`,
    );
  const qr = ds.createQueryRunner();
  await qr.connect();
  const partial = `${file}.partial`;
  try {
    await qr.startTransaction('REPEATABLE READ');
    const names = datasetNames(run);
    const found = await datasetsByName(qr, names);
    const rows: Record<string, number> = {};
    const header: PortableHeader = {
      format: PORTABLE_FORMAT,
      version: PORTABLE_VERSION,
      run: run.id,
      name: run.name,
      exportedAt: new Date().toISOString(),
      precis: precisVersion,
    };
    const params = [run.id, found.map((d) => d.id)];
    await pipeline(
      Readable.from(fileLines(qr, header, params, rows)),
      createGzip(),
      createWriteStream(partial),
    );
    await rename(partial, file);
    const missing = names.filter((n) => !found.some((d) => d.name === n));
    return { file, bytes: (await stat(file)).size, rows, missingDatasets: missing };
  } catch (err) {
    await unlink(partial).catch(() => {});
    const e = err as NodeJS.ErrnoException;
    if (e.path === partial)
      throw new Error(`cannot write ${file} (${e.code}): check that its folder exists and is writable`);
    throw err;
  } finally {
    if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => {});
    await qr.release();
  }
}

function datasetNames(run: RunEntity): string[] {
  const datasets = (run.spec as { datasets?: { name?: unknown }[] }).datasets ?? [];
  return [...new Set(datasets.map((d) => d.name).filter((n): n is string => typeof n === 'string'))];
}

// The file's text in pieces of up to FETCH_ROWS lines, counting each table's rows into `rows`.
async function* fileLines(
  qr: QueryRunner,
  header: PortableHeader,
  params: unknown[],
  rows: Record<string, number>,
): AsyncGenerator<string> {
  yield `${JSON.stringify(header)}\n`;
  for (const table of PORTABLE_TABLES) {
    rows[table.name] = 0;
    for await (const page of tableRows(qr, table, params)) {
      rows[table.name] += page.length;
      const prefix = `{"table":${JSON.stringify(table.name)},"row":`;
      yield `${page.map((json) => `${prefix}${json}}`).join('\n')}\n`;
    }
  }
  const trailer: PortableTrailer = { end: { rows } };
  yield `${JSON.stringify(trailer)}\n`;
}

// One table's rows as JSON objects rendered by the database (timestamps to the microsecond,
// jsonb as stored), in key order, through a cursor.
async function* tableRows(
  qr: QueryRunner,
  table: PortableTable,
  params: unknown[],
): AsyncGenerator<string[]> {
  const columns = await tableColumns(qr.manager, table.name);
  const select = columns
    .map((c) =>
      exportedAsText(c.type) ? `${quoteIdent(c.name)}::text AS ${quoteIdent(c.name)}` : quoteIdent(c.name),
    )
    .join(', ');
  // Byte order, not the database's collation: the same run gives the same file from any database.
  const text = new Set(columns.filter((c) => c.type === 'text').map((c) => c.name));
  const order = table.key
    .map((k) => (text.has(k) ? `${quoteIdent(k)} COLLATE "C"` : quoteIdent(k)))
    .join(', ');
  const cursor = `precis_export_${table.name}`;
  // Parameters cannot be bound in DECLARE: the ids are uuids and checked, so inlining is safe.
  const where = table.where
    .replace('$1', `'${uuid(params[0])}'`)
    .replace('$2', `ARRAY[${(params[1] as unknown[]).map((id) => `'${uuid(id)}'`).join(',')}]::uuid[]`);
  await declareRowCursor(qr, cursor, { select, table: table.name, where, order });
  try {
    for (;;) {
      const page = await fetchCursor(qr, cursor, FETCH_ROWS);
      if (page.length === 0) return;
      yield page.map((r) => r.line);
    }
  } finally {
    // After a failed statement the transaction is aborted and rolled back with the cursor.
    await closeCursor(qr, cursor).catch(() => {});
  }
}

function uuid(value: unknown): string {
  const text = String(value);
  if (!/^[0-9a-f-]{36}$/i.test(text)) throw new Error(`not a uuid: ${text}`);
  return text;
}
