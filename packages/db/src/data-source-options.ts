import 'reflect-metadata';
import type { DataSourceOptions, LoggerOptions } from 'typeorm';
import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';

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
  } satisfies DataSourceOptions;
}

export function postgresDataSourceOptions(url: string, logging?: LoggerOptions): DataSourceOptions {
  return {
    ...commonDataSourceOptions(logging),
    url,
    applicationName: 'precis',
  };
}
