// For the TypeORM CLI (developers only), after `npm run build -w packages/db`:
//   DATABASE_URL=postgres://... npx typeorm -d packages/db/dist/cli-data-source.js migration:generate \
//     packages/db/src/migrations/AddSomething
// Apps and tests use createDataSource() instead; both read the same options.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { postgresDataSourceOptions } from './data-source-options.js';
import { resolveDatabaseUrl } from './env.js';

const url = resolveDatabaseUrl(process.env);
if (!url) {
  throw new Error(
    'cli-data-source: set DATABASE_URL to the PostgreSQL database the TypeORM CLI should use ' +
      '(generate migrations against a database that has all current migrations applied)',
  );
}

export const cliDataSource = new DataSource(postgresDataSourceOptions(url, ['error', 'warn', 'migration']));
