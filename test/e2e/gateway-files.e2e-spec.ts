// One file-access policy for every path that reaches a server: ImportDataset (read by the
// ingestion service) and dataset paths in a CreateRun spec (read by the gateway) are confined to
// INGEST_ROOT after resolving symlinks, regular files only, size-limited, and refused at once with
// nothing disclosed about files outside the root. Needs the build: `npx turbo run build`.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IngestionServiceClient, RunServiceClient } from '@precis/contracts';
import {
  createDataSource,
  createThrowawayDatabase,
  generateApiKey,
  type ThrowawayDatabase,
} from '@precis/db';
import type { DataSource } from 'typeorm';
import {
  freePort,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';
import { deleteBusStreams, natsUrl, repoRoot, tempDir } from './runs-support.js';

const KEY = generateApiKey();
// Long enough for a slow machine, short enough that a read blocked on a pipe fails the test.
const DEADLINE_MS = 10_000;

function authorized(): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${KEY}`);
  return md;
}

interface Answer {
  code: number;
  details: string;
}

describe('file access through the gateway', () => {
  const prefix = `e2e_files_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-files-e2e-');
  const root = join(tmp.dir, 'root');
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let procs: ServiceProcess[] = [];
  let ingestion: IngestionServiceClient;
  let runs: RunServiceClient;

  const importFile = (path: string, name = 'refused') =>
    new Promise<Answer>((done) => {
      ingestion.importDataset(
        { kind: 'text', path, datasetName: name, replace: false },
        authorized(),
        { deadline: new Date(Date.now() + DEADLINE_MS) },
        (err) => done({ code: err?.code ?? status.OK, details: (err as ServiceError | null)?.details ?? '' }),
      );
    });
  const createRunOn = (path: string) => {
    const spec = {
      name: 'files',
      datasets: [{ name: 'book', kind: 'text', path }],
      systems: [{ name: 'tr', strategy: 'hierarchical', engine: 'textrank' }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    return new Promise<Answer>((done) => {
      runs.createRun(
        { specJson: JSON.stringify(spec), fresh: true },
        authorized(),
        { deadline: new Date(Date.now() + DEADLINE_MS) },
        (err) => done({ code: err?.code ?? status.OK, details: (err as ServiceError | null)?.details ?? '' }),
      );
    });
  };

  beforeAll(async () => {
    mkdirSync(join(root, 'books'), { recursive: true });
    writeFileSync(
      join(root, 'books/story.md'),
      'Mara keeps the lighthouse.\n\nA storm comes in the night.\n',
    );
    writeFileSync(join(root, 'big.md'), 'word '.repeat(400));
    symlinkSync('/etc/passwd', join(root, 'books/passwd.md'));
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    tdb = await createThrowawayDatabase('e2e_gateway_files');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const common = {
      DATABASE_URL: tdb.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      INGEST_ROOT: root,
      INGEST_MAX_FILE_BYTES: '1000',
    };
    const port = await freePort();
    procs = [
      startService(repoRoot, 'gateway', {
        ...common,
        HTTP_PORT: String(await freePort()),
        GRPC_PORT: String(port),
        PRECIS_API_KEYS: KEY,
      }),
      startService(repoRoot, 'ingestion', { ...common, HTTP_PORT: String(await freePort()) }),
    ];
    await Promise.all(procs.map((p) => waitReady(p)));
    ingestion = new IngestionServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
    runs = new RunServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    ingestion?.close();
    runs?.close();
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 30_000);

  const outside = (path: string) =>
    `${path}: outside the directory this server reads files from (INGEST_ROOT); put the file under it and pass a path relative to it`;

  it('imports a file under the root, by relative or absolute path', async () => {
    expect(await importFile('books/story.md', 'story')).toEqual({ code: status.OK, details: '' });
    expect(await importFile(join(root, 'books/story.md'), 'story')).toEqual({ code: status.OK, details: '' });
  });

  it.each([
    ['ImportDataset', importFile],
    ['CreateRun', createRunOn],
  ])(
    '%s refuses paths outside the root, links out of it, devices, pipes and over-size files',
    async (_m, call) => {
      expect(await call('/etc/shadow')).toEqual({
        code: status.PERMISSION_DENIED,
        details: outside('/etc/shadow'),
      });
      // A file that does not exist gets the same answer as one that does.
      expect(await call('/etc/no-such-file')).toEqual({
        code: status.PERMISSION_DENIED,
        details: outside('/etc/no-such-file'),
      });
      expect(await call('/dev/zero')).toEqual({
        code: status.PERMISSION_DENIED,
        details: outside('/dev/zero'),
      });
      expect(await call('../../../proc/self/environ')).toEqual({
        code: status.PERMISSION_DENIED,
        details: outside('../../../proc/self/environ'),
      });
      expect(await call('books/passwd.md')).toEqual({
        code: status.PERMISSION_DENIED,
        details: outside('books/passwd.md'),
      });
      expect(await call('pipe.md')).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'pipe.md: is a named pipe, not a regular file; pass the path of a data file',
      });
      expect(await call('big.md')).toEqual({
        code: status.INVALID_ARGUMENT,
        details:
          'big.md: is 2000 bytes, over the limit of 1000 bytes (set by INGEST_MAX_FILE_BYTES); split the file or raise the limit',
      });
      expect(await call('books/missing.md')).toEqual({
        code: status.NOT_FOUND,
        details: 'books/missing.md: file not found; check the path',
      });
    },
    60_000,
  );

  it('never imported a refused file, and ran each refused import once', async () => {
    const names = (await db.query('SELECT name FROM datasets ORDER BY name')).map(
      (r: { name: string }) => r.name,
    );
    expect(names).toEqual(['story']);
    const attempts = await db.query(
      `SELECT status, attempts, COUNT(*)::int AS n FROM tasks WHERE stage = 'ingest' AND status = 'failed' GROUP BY 1, 2`,
    );
    expect(attempts).toEqual([{ status: 'failed', attempts: 1, n: 8 }]);
  });
});
