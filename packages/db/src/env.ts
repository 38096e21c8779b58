import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

// The words a boolean environment variable takes, here and in the services' env schema alike.
export const ENV_TRUE_WORDS = ['true', '1', 'yes', 'on'] as const;
export const ENV_FALSE_WORDS = ['false', '0', 'no', 'off'] as const;
// As error texts name them: true/1/yes/on/false/0/no/off.
export const ENV_BOOL_WORDS = [...ENV_TRUE_WORDS, ...ENV_FALSE_WORDS].join('/');

// DATABASE_PREPARED_STATEMENTS: whether PostgreSQL statements may be prepared (default true).
export function resolvePreparedStatements(env: Env = process.env): boolean {
  const raw = env.DATABASE_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (!raw || (ENV_TRUE_WORDS as readonly string[]).includes(raw)) return true;
  if ((ENV_FALSE_WORDS as readonly string[]).includes(raw)) return false;
  throw new Error(
    `DATABASE_PREPARED_STATEMENTS must be one of ${ENV_BOOL_WORDS} ` +
      `(got "${env.DATABASE_PREPARED_STATEMENTS}"): set false behind a connection pooler in transaction ` +
      'mode that does not keep prepared statements',
  );
}

// Where the embedded database and local state live: PRECIS_HOME when set, else the nearest
// `.precis` directory in cwd or a parent (as git finds `.git`), else a new <cwd>/.precis.
export function resolvePrecisHome(env: Env = process.env, cwd: string = process.cwd()): string {
  const home = env.PRECIS_HOME?.trim();
  if (home) return resolve(cwd, home);
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, '.precis');
    if (isDirectory(candidate)) return candidate;
    if (dirname(dir) === dir) return join(start, '.precis');
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// Where the embedded database lives by default: <precis home>/db.
export function resolvePgliteDir(env: Env = process.env, cwd: string = process.cwd()): string {
  return join(resolvePrecisHome(env, cwd), 'db');
}
