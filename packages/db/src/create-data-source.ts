import 'reflect-metadata';
import { DataSource, type LoggerOptions } from 'typeorm';
import { commonDataSourceOptions, postgresDataSourceOptions } from './data-source-options.js';
import { type Env, redactUrl, resolvePgliteDir } from './env.js';
import { createPgliteDriver } from './pglite/pglite-driver.js';
import { pgliteLocation } from './pglite/pglite-open.js';

export interface CreateDataSourceOptions {
  // PostgreSQL URL (usually resolveDatabaseUrl(process.env)). When absent the embedded PGlite is used.
  url?: string;
  // Directory of the embedded database; default <PRECIS_HOME or ./.precis>/db.
  pgliteDir?: string;
  // Embedded database in memory (tests); ignored when url is given.
  inMemory?: boolean;
  logging?: LoggerOptions | boolean;
  // Apply pending migrations after connecting (default true).
  runMigrations?: boolean;
  // Environment for PRECIS_HOME (default process.env).
  env?: Env;
  // PostgreSQL only: run the task path's statements as prepared statements (default true; false
  // behind a connection pooler in transaction mode that does not keep them).
  preparedStatements?: boolean;
  // PostgreSQL only: connections in the pool (default DEFAULT_POOL_SIZE).
  poolSize?: number;
  // PGlite only: how long a query runner waits for the single session before failing.
  pgliteLeaseTimeoutMs?: number;
}

export type DatabaseKind = 'postgres' | 'pglite';

// Which engine a DataSource talks to (PGlite differs in a few return types, see toNumber).
export function databaseKind(ds: DataSource): DatabaseKind {
  return (ds.options as { driver?: unknown }).driver ? 'pglite' : 'postgres';
}

// PostgreSQL data sources created with preparedStatements: false.
const unprepared = new WeakSet<DataSource>();

// Whether preparedQuery may prepare statements on this data source.
export function preparesStatements(ds: DataSource): boolean {
  return databaseKind(ds) === 'postgres' && !unprepared.has(ds);
}

function describeTarget(opts: CreateDataSourceOptions, pgliteDir: string | undefined): string {
  if (opts.url) return `PostgreSQL at ${redactUrl(opts.url)}`;
  return pgliteDir === undefined
    ? 'the in-memory embedded database'
    : `the embedded database in ${pgliteDir}`;
}

function explain(err: unknown, target: string, phase: 'connect' | 'migrate', url: string | undefined): Error {
  const message = err instanceof Error ? err.message : String(err);
  let hint: string;
  if (phase === 'migrate') {
    hint = 'the schema could not be brought up to date; fix the cause above and restart';
  } else if (url) {
    hint = 'check that the server runs and that DATABASE_URL (user, password, host, port, database) is right';
  } else {
    hint =
      'the directory may be corrupt or written by another PostgreSQL/PGlite version: move it away to ' +
      'start fresh (or restore a backup), set PRECIS_HOME to another place, or set DATABASE_URL';
  }
  return new Error(`cannot ${phase === 'connect' ? 'open' : 'migrate'} ${target}: ${message} (${hint})`, {
    cause: err,
  });
}

// The one data-source factory: PostgreSQL when a URL is given, else the embedded PGlite database
// (on disk by default, or in memory). Returns an initialized DataSource with migrations applied.
export async function createDataSource(opts: CreateDataSourceOptions = {}): Promise<DataSource> {
  const logging = opts.logging ?? false;
  let ds: DataSource;
  let pgliteDir: string | undefined;
  let releasePglite = () => {};
  if (opts.url) {
    ds = new DataSource(postgresDataSourceOptions(opts.url, logging, opts.poolSize));
    if (opts.preparedStatements === false) unprepared.add(ds);
  } else {
    pgliteDir = opts.inMemory ? undefined : pgliteLocation(opts.pgliteDir ?? resolvePgliteDir(opts.env));
    const handle = createPgliteDriver({ dir: pgliteDir, leaseTimeoutMs: opts.pgliteLeaseTimeoutMs });
    releasePglite = handle.release;
    ds = new DataSource({ ...commonDataSourceOptions(logging), driver: handle.driver });
  }
  const target = describeTarget(opts, pgliteDir);
  try {
    await ds.initialize();
  } catch (err) {
    releasePglite();
    throw explain(err, target, 'connect', opts.url);
  }
  if (opts.runMigrations ?? true) {
    try {
      await ds.runMigrations({ transaction: 'all' });
    } catch (err) {
      await ds.destroy().catch(() => {});
      releasePglite();
      throw explain(err, target, 'migrate', opts.url);
    }
  }
  return ds;
}
