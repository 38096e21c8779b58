import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { toNumber } from './numbers.js';

type Db = DataSource | EntityManager;

function managerOf(db: Db): EntityManager {
  return 'manager' in db ? db.manager : db;
}

// Rows in a table, given as an entity class or a table name (e.g. for "row counts unchanged").
export async function countRows(db: Db, target: EntityTarget<ObjectLiteral> | string): Promise<number> {
  const manager = managerOf(db);
  let table: string;
  if (typeof target === 'string' && !manager.connection.hasMetadata(target)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(target)) {
      throw new Error(
        `countRows: "${target}" is not a table name (letters, digits, _; optionally schema.table)`,
      );
    }
    table = target
      .split('.')
      .map((part) => manager.connection.driver.escape(part))
      .join('.');
  } else {
    const meta = manager.connection.getMetadata(target);
    table = manager.connection.driver.escape(meta.tableName);
    if (meta.schema) table = `${manager.connection.driver.escape(meta.schema)}.${table}`;
  }
  const rows: Array<{ n: string | number }> = await manager.query(`SELECT count(*) AS n FROM ${table}`);
  return toNumber(rows[0]?.n ?? 0);
}

export interface TransactionOptions {
  isolation?: IsolationLevel;
  // Retries of the whole function on serialization failures and deadlocks (default 2).
  retries?: number;
}

const RETRYABLE = new Set(['40001', '40P01']);

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

// Runs fn in one transaction: committed when fn resolves, rolled back when it throws. fn must use the
// EntityManager it receives (the embedded database has a single session). Retried on
// serialization failures/deadlocks, so fn must not have side effects outside the database.
export async function inTransaction<T>(
  ds: DataSource,
  fn: (manager: EntityManager) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  const retries = opts.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    try {
      return opts.isolation ? await ds.transaction(opts.isolation, fn) : await ds.transaction(fn);
    } catch (err) {
      const code = sqlState(err);
      if (attempt >= retries || code === undefined || !RETRYABLE.has(code)) throw err;
    }
  }
}

export interface ChunkOptions {
  // Rows per statement (default 500); keeps parameters under PostgreSQL's 65535 limit.
  chunkSize?: number;
}

function chunkSizeFor(rows: readonly unknown[], opts: ChunkOptions, columns: number): number {
  const size = opts.chunkSize ?? Math.max(1, Math.min(500, Math.floor(60_000 / Math.max(1, columns))));
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`chunkSize must be a positive integer, got ${size}`);
  return Math.min(size, Math.max(1, rows.length));
}

// Multi-row INSERTs in chunks. Wrap in inTransaction() for all-or-nothing.
export async function insertInChunks<E extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<E>,
  rows: readonly QueryDeepPartialEntity<E>[],
  opts: ChunkOptions = {},
): Promise<number> {
  const manager = managerOf(db);
  const size = chunkSizeFor(rows, opts, manager.connection.getMetadata(target).columns.length);
  for (let i = 0; i < rows.length; i += size) {
    await manager.insert(target, rows.slice(i, i + size) as QueryDeepPartialEntity<E>[]);
  }
  return rows.length;
}

export interface UpsertOptions extends ChunkOptions {
  // Property names of the natural key (a unique index or the primary key).
  conflictPaths: string[];
}

// INSERT ... ON CONFLICT (natural key) DO UPDATE in chunks: running it twice changes nothing.
export async function upsertInChunks<E extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<E>,
  rows: readonly QueryDeepPartialEntity<E>[],
  opts: UpsertOptions,
): Promise<number> {
  const manager = managerOf(db);
  const size = chunkSizeFor(rows, opts, manager.connection.getMetadata(target).columns.length);
  for (let i = 0; i < rows.length; i += size) {
    await manager.upsert(target, rows.slice(i, i + size) as QueryDeepPartialEntity<E>[], {
      conflictPaths: opts.conflictPaths,
      skipUpdateIfNoValuesChanged: true,
    });
  }
  return rows.length;
}
