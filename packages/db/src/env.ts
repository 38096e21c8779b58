import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

// A URL with its password replaced, safe to put in errors and logs.
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable URL>';
  }
}

// DATABASE_URL when set (PostgreSQL), else undefined (the embedded PGlite database is used).
export function resolveDatabaseUrl(env: Env = process.env): string | undefined {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(
      'DATABASE_URL is not a valid URL: expected postgres://user[:password]@host[:port]/database, ' +
        'or leave it unset to use the embedded database',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(
      `DATABASE_URL must start with postgres:// or postgresql:// (got ${parsed.protocol}//...): ` +
        'only PostgreSQL is supported; leave it unset to use the embedded database',
    );
  }
  return raw;
}

// Where the embedded database lives by default: <PRECIS_HOME or <cwd>/.precis>/db.
export function resolvePgliteDir(env: Env = process.env, cwd: string = process.cwd()): string {
  const home = env.PRECIS_HOME?.trim();
  return home ? resolve(cwd, home, 'db') : join(resolve(cwd), '.precis', 'db');
}
