import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, onProcessExit, removeDir } from './process-cleanup.js';

const run = promisify(execFile);

export interface ThrowawayPostgresOptions {
  // Directory holding initdb, pg_ctl and postgres (default: PG_BIN_DIR, else the newest
  // /usr/lib/postgresql/<v>/bin).
  binDir?: string;
}

/** A PostgreSQL server on a free port with its own data dir (trust auth, user postgres). */
export interface ThrowawayPostgres {
  /** URL of its `postgres` database. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly running: boolean;
  /** URL of another database on this server. */
  urlFor(database: string): string;
  /** Creates a database (createdb) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server: `fast` (default) ends sessions with SQLSTATE 57P01 like an operator's
   * restart; `immediate` is a crash. Clients then get ECONNREFUSED until start().
   */
  stop(opts?: { mode?: 'fast' | 'immediate' }): Promise<void>;
  /** Starts it again on the same port and data dir. */
  start(): Promise<void>;
  /** Stops it and removes its files (idempotent). */
  dispose(): Promise<void>;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
// PostgreSQL refuses to run as root: run its binaries as the postgres user instead.
const asUser = isRoot ? ['runuser', '-u', 'postgres', '--'] : [];

function findBinDir(explicit?: string): string {
  if (explicit) return explicit;
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const v = versions.find((x) => existsSync(join(base, x, 'bin', 'initdb')));
  if (!v)
    throw new Error(
      'PostgreSQL binaries not found under /usr/lib/postgresql: install postgresql or set PG_BIN_DIR',
    );
  return join(base, v, 'bin');
}

async function pg(binDir: string, bin: string, args: string[]): Promise<void> {
  const argv = [...asUser, join(binDir, bin), ...args];
  try {
    await run(argv[0] as string, argv.slice(1), { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${bin} ${args.join(' ')} failed: ${(e.stderr || e.message).trim()}`, { cause: err });
  }
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (isRoot) execFileSync('chown', ['postgres', dir]);
  return dir;
}

// One initdb per process (a jest test file): every server after the first copies its result.
const templates = new Map<string, Promise<string>>();

function template(binDir: string): Promise<string> {
  let p = templates.get(binDir);
  if (!p) {
    p = (async () => {
      const dir = tempDir('precis-pg-template-');
      onProcessExit({ rm: dir });
      const data = join(dir, 'data');
      await pg(binDir, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      return data;
    })();
    p.catch(() => templates.delete(binDir));
    templates.set(binDir, p);
  }
  return p;
}

export async function startThrowawayPostgres(
  opts: ThrowawayPostgresOptions = {},
): Promise<ThrowawayPostgres> {
  const binDir = findBinDir(opts.binDir);
  const templateData = await template(binDir);
  const dir = tempDir('precis-pg-');
  const dataDir = join(dir, 'data');
  await run('cp', ['-a', templateData, dataDir]);
  const port = await freePort();
  let running = false;
  let disposed = false;
  const ctl = (args: string[]) => pg(binDir, 'pg_ctl', ['-D', dataDir, ...args]);
  const unhookDir = onProcessExit({ rm: dir });
  const stopNow = { exec: [...asUser, join(binDir, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop'] };
  let unhookServer = () => {};
  // Durability is not tested here: skipping fsyncs makes start, stop and writes fast.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;

  const start = async () => {
    if (disposed) throw new Error(`throwaway PostgreSQL on port ${port} was disposed`);
    if (running) return;
    unhookServer = onProcessExit(stopNow);
    await ctl(['-o', serverOptions, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = async ({ mode = 'fast' }: { mode?: 'fast' | 'immediate' } = {}) => {
    if (!running) return;
    await ctl(['-m', mode, '-w', 'stop']);
    running = false;
    unhookServer();
  };
  const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  await start();
  return {
    url: urlFor('postgres'),
    port,
    dataDir,
    get running() {
      return running;
    },
    urlFor,
    async createDatabase(name: string) {
      await pg(binDir, 'createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return urlFor(name);
    },
    stop,
    start,
    async dispose() {
      if (disposed) return;
      await stop({ mode: 'immediate' });
      disposed = true;
      removeDir(dir);
      unhookDir();
    },
  };
}
