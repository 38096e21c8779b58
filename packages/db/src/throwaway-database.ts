import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { redactUrl, resolveDatabaseUrl } from './env.js';

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ThrowawayDatabase {
  name: string;
  url: string;
  // Terminates every connection to it and drops it (idempotent).
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'precis-throwaway' });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `cannot reach PostgreSQL at ${redactUrl(adminUrl)} to create a test database: ${(err as Error).message} ` +
        '(start the server or set DATABASE_URL)',
      { cause: err },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

// A fresh, empty database on the server of DATABASE_URL (or the local default) for one test file.
export async function createThrowawayDatabase(prefix: string, env = process.env): Promise<ThrowawayDatabase> {
  const adminUrl = resolveDatabaseUrl(env) ?? DEFAULT_ADMIN_URL;
  const safePrefix =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .slice(0, 40) || 'test';
  const name = `${safePrefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      await withAdmin(adminUrl, async (c) => {
        await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      dropped = true;
    },
  };
}
