// The cluster's schema step, run from the service image:
//   node packages/db/dist/migrate.js            apply pending migrations (the migrations Job)
//   node packages/db/dist/migrate.js --wait     wait until none is pending (each service's init container)
// Services in a cluster start with DATABASE_RUN_MIGRATIONS=false: one Job migrates, none races it.
import 'reflect-metadata';
import { createDataSource } from './create-data-source.js';
import { resolveDatabaseUrl } from './env.js';

const POLL_MS = 2000;

async function main(): Promise<number> {
  const wait = process.argv.includes('--wait');
  const timeoutMs = Number(process.env.MIGRATE_WAIT_TIMEOUT_MS ?? 600_000);
  const url = resolveDatabaseUrl(process.env);
  if (!url) {
    process.stderr.write('migrate: set DATABASE_URL to the cluster PostgreSQL database\n');
    return 2;
  }
  const ds = await createDataSource({ url, runMigrations: !wait });
  try {
    if (!wait) {
      process.stdout.write('migrate: every migration is applied\n');
      return 0;
    }
    const deadline = Date.now() + timeoutMs;
    while (await ds.showMigrations()) {
      if (Date.now() > deadline) {
        process.stderr.write(
          `migrate: migrations still pending after ${timeoutMs} ms; is the migrations Job running?\n`,
        );
        return 1;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    process.stdout.write('migrate: the schema is current\n');
    return 0;
  } finally {
    await ds.destroy();
  }
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`migrate: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
