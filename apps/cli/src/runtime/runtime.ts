import { join } from 'node:path';
import { type Bus, createInProcessBus } from '@precis/bus';
import { createDataSource, redactUrl, resolveDatabaseUrl, resolvePreparedStatements } from '@precis/db';
import { markOrphanedRunsInterrupted } from '@precis/engine';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_READ_TIMEOUT_MS, type FileAccessPolicy } from '@precis/files';
import type { DataSource } from 'typeorm';
import { precisHome } from './home.js';
import type { IngestionPort } from './ingestion-port.js';
import { LocalIngestion } from './local-ingestion.js';
import { remoteAccess } from './remote-access.js';
import { RemoteIngestion } from './remote-ingestion.js';

export interface RuntimeOptions {
  databaseUrl?: string;
  remote?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type RuntimeMode = 'embedded' | 'postgres' | 'remote';

// What a command runs against: the embedded runtime (PGlite + in-process bus), a PostgreSQL
// database used directly, or a gateway reached over gRPC.
export interface PrecisRuntime {
  mode: RuntimeMode;
  // Human-readable target, e.g. "embedded database in /home/me/.precis/db".
  target: string;
  ingestion: IngestionPort;
  // The database of local modes (embedded PGlite or PostgreSQL); null with --remote.
  dataSource: DataSource | null;
  // The in-process bus the embedded services share; null with --remote (the gateway runs them).
  bus: Bus | null;
  close(): Promise<void>;
}

export async function openRuntime(opts: RuntimeOptions): Promise<PrecisRuntime> {
  if (opts.remote) {
    if (opts.databaseUrl) throw new Error('--remote and --database-url exclude each other: pick one');
    if (!/^[^\s:/]+:\d+$/.test(opts.remote) && !/^\[[^\]]+\]:\d+$/.test(opts.remote)) {
      throw new Error(
        `--remote expects the gateway as host:port (e.g. localhost:50051), got "${opts.remote}"`,
      );
    }
    const ingestion = new RemoteIngestion(opts.remote, remoteAccess(opts.env));
    return {
      mode: 'remote',
      target: `gateway at ${opts.remote}`,
      ingestion,
      dataSource: null,
      bus: null,
      async close() {
        ingestion.close();
      },
    };
  }
  const url = opts.databaseUrl === undefined ? resolveDatabaseUrl(opts.env) : explicitUrl(opts.databaseUrl);
  let ds: DataSource;
  let target: string;
  if (url) {
    ds = await createDataSource({ url, preparedStatements: resolvePreparedStatements(opts.env) });
    target = `PostgreSQL at ${redactUrl(url)}`;
  } else {
    const dir = join(precisHome(opts.env, opts.cwd), 'db');
    ds = await createDataSource({ pgliteDir: dir });
    await markOrphanedRunsInterrupted(ds);
    target = `embedded database in ${dir}`;
  }
  const bus = createInProcessBus();
  return {
    mode: url ? 'postgres' : 'embedded',
    target,
    ingestion: new LocalIngestion(ds, localFilePolicy(opts.env)),
    dataSource: ds,
    bus,
    async close() {
      await bus.close();
      await ds.destroy();
    },
  };
}

// --database-url goes through the same validation as DATABASE_URL; an empty value is a mistake,
// not a request for the embedded database.
function explicitUrl(value: string): string {
  const url = resolveDatabaseUrl({ DATABASE_URL: value });
  if (!url)
    throw new Error('--database-url is empty: pass postgres://user@host:port/database or omit the option');
  return url;
}

// The local file checks (regular files only, size- and time-limited); PRECIS_MAX_FILE_BYTES
// lowers or raises the size limit.
export function localFilePolicy(env: NodeJS.ProcessEnv): FileAccessPolicy {
  const raw = env.PRECIS_MAX_FILE_BYTES?.trim();
  const maxBytes = raw ? Number(raw) : DEFAULT_MAX_FILE_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > DEFAULT_MAX_FILE_BYTES)
    throw new Error(
      `PRECIS_MAX_FILE_BYTES=${JSON.stringify(raw)} is not an integer in 1..${DEFAULT_MAX_FILE_BYTES} (the largest dataset file read, in bytes)`,
    );
  return { maxBytes, timeoutMs: DEFAULT_READ_TIMEOUT_MS, settings: { maxBytes: 'PRECIS_MAX_FILE_BYTES' } };
}
