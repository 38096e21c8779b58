import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PgliteSession } from './pglite-session.js';
import { pgliteTemplate } from './pglite-template.js';

// Opening an embedded database: this process's claim on it, the directory's lock file, and the
// database thread. Light on purpose (no TypeORM), so the CLI can start it before its modules load.

export const PGLITE_LOCK_FILE = 'precis.lock';

export function pgliteLocation(dir: string | undefined): string {
  return dir === undefined ? 'memory' : resolve(dir);
}

// Whether a process with this pid runs (on this machine, as any user).
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// PGlite itself does not lock its directory; two processes writing it would corrupt it.
function lockDirectory(dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create the embedded database directory ${dir}: ${(err as Error).message}`);
  }
  if (!statSync(dir).isDirectory()) throw new Error(`embedded database path ${dir} is not a directory`);
  const lockPath = join(dir, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
        throw new Error(
          `the embedded database in ${dir} is in use by process ${holder} (lock file ${lockPath}). ` +
            'Stop that process, point PRECIS_HOME elsewhere, or set DATABASE_URL to use PostgreSQL.',
        );
      }
      // Left behind by a process that died: take it over.
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not take the lock ${lockPath}; remove it if no Precis process is running`);
}

export interface OpenedPglite {
  location: string;
  session: PgliteSession;
  // Stops the thread if still running, drops the claim and the lock (idempotent).
  release(): void;
}

let openLocation: string | null = null;
let prestarted: (OpenedPglite & { created: string | null }) | null = null;

// Claims the database in `dir` (undefined = in memory) for this process and starts its thread,
// or hands over the one prestartPglite started for the same directory.
export function openPglite(dir: string | undefined): OpenedPglite {
  const location = pgliteLocation(dir);
  const early = prestarted;
  prestarted = null;
  if (early?.location === location) return early;
  early?.release();
  if (openLocation !== null) {
    throw new Error(
      `an embedded database (${openLocation}) is already open in this process; Precis opens one ` +
        'per process: destroy() that DataSource first, or use PostgreSQL via DATABASE_URL',
    );
  }
  const unlock = dir === undefined ? () => {} : lockDirectory(location);
  const dataDir = dir === undefined ? undefined : location;
  const templatePath = pgliteTemplate(dataDir);
  let session: PgliteSession;
  try {
    session = new PgliteSession({
      ...(dataDir ? { dataDir } : {}),
      ...(templatePath ? { templatePath } : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  openLocation = location;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    void session.kill();
    openLocation = null;
    unlock();
  };
  return { location, session, release };
}

// The top of the directories a lock on `path` would create, or null when `path` exists.
function firstMissing(path: string): string | null {
  if (existsSync(path)) return null;
  let top = path;
  for (let up = dirname(top); up !== top && !existsSync(up); up = dirname(up)) top = up;
  return top;
}

// Starts opening the database in `dir` now, on its own thread, for a later createDataSource on the
// same directory to take over. Any problem is left for that createDataSource to report.
export function prestartPglite(dir: string): void {
  if (prestarted || openLocation !== null) return;
  const created = firstMissing(resolve(dir));
  try {
    prestarted = { ...openPglite(dir), created };
  } catch {
    prestarted = null;
  }
}

// Closes a prestarted database nobody took over (a command that failed before it opened one).
// What this process created for it is removed, so a command refused early changes nothing.
export async function closePrestartedPglite(): Promise<void> {
  const early = prestarted;
  prestarted = null;
  if (!early) return;
  if (early.created) {
    await early.session.kill();
    early.release();
    rmSync(early.created, { recursive: true, force: true });
    return;
  }
  await early.session.close().catch(() => {});
  early.release();
}
