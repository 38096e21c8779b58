// The cluster's schema step as the migrations Job and the services' init containers run it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../src/index.js';

const SCRIPT = resolve(import.meta.dirname, '../../dist/migrate.js');

function migrate(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) =>
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...process.env, ...env } }, (error, out, err) =>
      done({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    ),
  );
}

describe('packages/db/dist/migrate.js', () => {
  let tdb: ThrowawayDatabase;

  beforeAll(async () => {
    if (!existsSync(SCRIPT)) throw new Error('packages/db is not built: run `npm run build` first');
    tdb = await createThrowawayDatabase('migrate_script');
  });

  afterAll(async () => {
    await tdb?.drop();
  });

  it('waits in vain on an empty database, applies every migration, then finds the schema current', async () => {
    const env = { DATABASE_URL: tdb.url, MIGRATE_WAIT_TIMEOUT_MS: '300' };
    expect(await migrate(['--wait'], env)).toEqual({
      code: 1,
      out: '',
      err: 'migrate: migrations still pending after 300 ms; is the migrations Job running?\n',
    });
    expect(await migrate([], env)).toEqual({
      code: 0,
      out: 'migrate: every migration is applied\n',
      err: '',
    });
    expect(await migrate(['--wait'], env)).toEqual({
      code: 0,
      out: 'migrate: the schema is current\n',
      err: '',
    });
  }, 60_000);

  it('says what to set without DATABASE_URL', async () => {
    expect(await migrate([], { DATABASE_URL: '' })).toEqual({
      code: 2,
      out: '',
      err: 'migrate: set DATABASE_URL to the cluster PostgreSQL database\n',
    });
  });
});
