import 'reflect-metadata';
import type { DataSourceOptions, LoggerOptions } from 'typeorm';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';
import { CountingLogger } from './statement-counter.js';

export const MIGRATIONS_TABLE = 'migrations';

// Options shared by PostgreSQL and PGlite: same entities, same migrations, never synchronize.
// installExtensions is off on both: gen_random_uuid() is built into PostgreSQL 13+ (and PGlite),
// and CREATE EXTENSION would need superuser rights (and crashes PGlite).
export function commonDataSourceOptions(logging: LoggerOptions = false) {
  return {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'all' as const,
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto' as const,
    logging,
    logger: new CountingLogger(logging),
  } satisfies DataSourceOptions;
}

// Connections per DataSource. pg's default of 10 starves workers that run many handlers at once
// (each handler holds a connection only per query, but dozens of them queue behind 10).
export const DEFAULT_POOL_SIZE = 20;

export function postgresDataSourceOptions(
  url: string,
  logging?: LoggerOptions,
  poolSize = DEFAULT_POOL_SIZE,
): DataSourceOptions {
  return {
    ...commonDataSourceOptions(logging),
    url,
    applicationName: 'precis',
    poolSize,
    // Precis issues many short statements. Without fresh planner statistics (a server with
    // autovacuum off, or tables that just grew) their estimated costs can pass jit_above_cost, and
    // PostgreSQL then spends tens of milliseconds compiling each one with LLVM: a warm re-run of a
    // 58,240-call judge sweep spent 15% of the server's CPU in LLVM. Plain interpretation is faster
    // for every query Precis runs.
    extra: { options: '-c jit=off' },
  };
}
