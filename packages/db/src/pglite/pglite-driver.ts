import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGliteDriver } from 'typeorm-pglite';
import { pgliteTemplate } from './pglite-template.js';

// typeorm-pglite keeps ONE PGlite instance per process (a static) and hands the same session to
// every TypeORM query runner, so two concurrent transactions would interleave their statements
// (one's ROLLBACK undoing the other's work). The pool below leases that single session to one
// query runner at a time, and this module refuses a second embedded database in the process.

export const PGLITE_LOCK_FILE = 'precis.lock';

// typeorm-pglite is CommonJS: take PGlite's option type through it, not from the ESM entry.
type PGliteOptions = NonNullable<ConstructorParameters<typeof PGliteDriver>[0]>;
type BasePool = InstanceType<PGliteDriver['driver']['Pool']>;
type Done = (err?: unknown) => void;
type ConnectCallback = (err: unknown, client: BasePool | null, done: Done) => void;

export interface PgliteDriverHandle {
  // The object for TypeORM's `driver` option.
  driver: { Pool: new () => BasePool };
  // Releases the in-process claim and the directory lock (idempotent; also done by pool.end()).
  release(): void;
}

export interface PgliteDriverOptions {
  // Directory of the database files; undefined = in memory.
  dir?: string;
  // How long a query runner may wait for the session before failing with an explanation.
  leaseTimeoutMs?: number;
}

let openLocation: string | null = null;

export function pgliteLocation(dir: string | undefined): string {
  return dir === undefined ? 'memory' : resolve(dir);
}

function isAlive(pid: number): boolean {
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
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
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

type PoolClass = ReturnType<typeof basePool>;
const basePool = (o: PGliteOptions) => new PGliteDriver(o).driver.Pool;

// The pool TypeORM gets: one lease of PGlite's single session at a time, the next caller waiting
// (up to leaseTimeoutMs) until the holder releases it.
function leasingPool(Base: PoolClass, leaseTimeoutMs: number, release: () => void) {
  return class LeasingPool extends Base {
    private held = false;
    private readonly waiting: Array<() => void> = [];

    private acquire(): Promise<void> {
      if (!this.held) {
        this.held = true;
        return Promise.resolve();
      }
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          fail(
            new Error(
              `waited ${leaseTimeoutMs} ms for the embedded database session, held by another query ` +
                'runner. PGlite has one session: inside a transaction callback use the EntityManager ' +
                'it receives, not the DataSource, or set DATABASE_URL to use PostgreSQL.',
            ),
          );
        }, leaseTimeoutMs);
        timer.unref();
        const entry = () => {
          clearTimeout(timer);
          ok();
        };
        this.waiting.push(entry);
      });
    }

    private handOver(): void {
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    }

    override async connect(callback: ConnectCallback): Promise<void> {
      try {
        await this.acquire();
      } catch (err) {
        callback(err, null, () => {});
        return;
      }
      let done = false;
      const leaseDone: Done = () => {
        if (done) return;
        done = true;
        this.handOver();
      };
      await super.connect((err, client) => {
        if (err) {
          leaseDone();
          callback(err, null, () => {});
        } else {
          callback(null, client, leaseDone);
        }
      });
    }

    // biome-ignore lint/complexity/noBannedTypes: the signature typeorm-pglite declares
    override end(callback: Function): void {
      super.end((err: unknown) => {
        release();
        callback(err);
      });
    }
  };
}

export function createPgliteDriver(opts: PgliteDriverOptions): PgliteDriverHandle {
  const location = pgliteLocation(opts.dir);
  if (openLocation !== null) {
    throw new Error(
      `an embedded database (${openLocation}) is already open in this process; PGlite allows one ` +
        'per process: destroy() that DataSource first, or use PostgreSQL via DATABASE_URL',
    );
  }
  const unlock = opts.dir === undefined ? () => {} : lockDirectory(location);
  openLocation = location;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    openLocation = null;
    unlock();
  };

  const template = pgliteTemplate(opts.dir === undefined ? undefined : location);
  const pgliteOptions: PGliteOptions =
    opts.dir === undefined ? {} : { dataDir: location, ...(template ? { loadDataDir: template } : {}) };
  const Base = basePool(pgliteOptions);
  const leaseTimeoutMs = opts.leaseTimeoutMs ?? 120_000;

  const LeasingPool = leasingPool(Base, leaseTimeoutMs, release);
  return { driver: { Pool: LeasingPool }, release };
}
