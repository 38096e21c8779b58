// Ingest errors no retry can fix (a NUL in the text, 50,000-deep metadata, a 50 MB line without a
// blank line) are answered INVALID_ARGUMENT at once, naming the file, the record and the field; the
// ingest task runs once. Needs the build: `npx turbo run build`.

import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IngestionServiceClient } from '@precis/contracts';
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

function authorized(): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${KEY}`);
  return md;
}

describe('permanent ingest errors through the gateway', () => {
  const prefix = `e2e_ingerr_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-ingest-errors-');
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let procs: ServiceProcess[] = [];
  let client: IngestionServiceClient;

  const importFile = (kind: string, path: string, name: string) =>
    new Promise<{ code: number; details: string }>((done) => {
      client.importDataset(
        { kind, path, datasetName: name, replace: false },
        authorized(),
        // Far below the ~51 s five retries used to take; a retried task fails the test.
        { deadline: new Date(Date.now() + 20_000) },
        (err) => done({ code: err?.code ?? status.OK, details: (err as ServiceError | null)?.details ?? '' }),
      );
    });

  beforeAll(async () => {
    writeFileSync(
      join(tmp.dir, 'nul.jsonl'),
      '{"id":"a","text":"fine"}\n{"id":"b","text":"bad\\u0000text"}\n',
    );
    const deep = `${'['.repeat(50_000)}1${']'.repeat(50_000)}`;
    writeFileSync(join(tmp.dir, 'deep.jsonl'), `{"id":"a","text":"t","metadata":{"x":${deep}}}\n`);
    writeFileSync(join(tmp.dir, 'long.txt'), `Title line\n\n${'storm light '.repeat(4_400_000)}\n`);
    tdb = await createThrowawayDatabase('e2e_ingest_errors');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const common = {
      DATABASE_URL: tdb.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      INGEST_ROOT: tmp.dir,
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
    client = new IngestionServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 30_000);

  it('answers INVALID_ARGUMENT naming file, record and field, after one attempt', async () => {
    expect(await importFile('jsonl', 'nul.jsonl', 'nul')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'nul.jsonl: line 2, field text: holds a NUL character (U+0000), which cannot be stored. Fix: remove the \\u0000 escapes from the file',
    });
    expect(await importFile('jsonl', 'deep.jsonl', 'deep')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'deep.jsonl: line 1: JSON nested more than 64 levels deep (column 100). Fix: flatten the structure; datasets and their metadata need only a few levels',
    });
    expect(await importFile('text', 'long.txt', 'long')).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'long.txt: line 3: a paragraph of 52,799,999 characters without a blank line; at most 1,000,000 are accepted. Fix: separate paragraphs with blank lines',
    });
    const tasks = await db.query(
      `SELECT status, attempts, COUNT(*)::int AS n FROM tasks WHERE stage = 'ingest' GROUP BY 1, 2`,
    );
    expect(tasks).toEqual([{ status: 'failed', attempts: 1, n: 3 }]);
    expect((await db.query('SELECT COUNT(*)::int AS n FROM datasets'))[0].n).toBe(0);
  }, 90_000);
});
