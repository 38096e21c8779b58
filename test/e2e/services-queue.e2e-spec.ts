// The ingest queue is durable: with no ingestion service running, ImportDataset times out with a
// clear DEADLINE_EXCEEDED, the task stays queued, and an ingestion service started later picks
// it up and imports the dataset.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus } from '@precis/bus';
import { type GetDatasetResponse, IngestionServiceClient } from '@precis/contracts';
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

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// The gateway's key (mounted in its PRECIS_API_KEYS) and call metadata carrying it.
const API_KEY = generateApiKey();
function authorized(): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${API_KEY}`);
  return md;
}
const datasetsRoot = realpathSync(resolve(repoRoot, '../shared/datasets'));
const alicePath = resolve(datasetsRoot, 'books/alice-in-wonderland.txt');

describe('ingest tasks wait in the queue for an ingestion service', () => {
  const prefix = `e2e_queue_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let gateway: ServiceProcess;
  let ingestion: ServiceProcess | undefined;
  let client: IngestionServiceClient;
  let common: Record<string, string>;

  beforeAll(async () => {
    db = await createThrowawayDatabase('e2e_services_queue');
    ds = await createDataSource({ url: db.url, runMigrations: true });
    common = {
      DATABASE_URL: db.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      INGEST_ROOT: datasetsRoot,
    };
    const grpcPort = await freePort();
    gateway = startService(repoRoot, 'gateway', {
      ...common,
      HTTP_PORT: String(await freePort()),
      GRPC_HOST: '127.0.0.1',
      PRECIS_API_KEYS: API_KEY,
      GRPC_PORT: String(grpcPort),
      INGEST_TIMEOUT_MS: '1000',
    });
    await waitReady(gateway);
    client = new IngestionServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await Promise.all([gateway?.stop('SIGKILL'), ingestion?.stop('SIGKILL')]);
    const admin = await createNatsBus({ servers: natsUrl, prefix });
    await admin.deleteStreams();
    await admin.close();
    await ds?.destroy();
    await db?.drop();
  }, 60_000);

  it('times out with DEADLINE_EXCEEDED, then a late ingestion service finishes the task', async () => {
    const err = await new Promise<ServiceError | null>((done) => {
      client.importDataset(
        { kind: 'text', path: alicePath, datasetName: 'alice', replace: false },
        authorized(),
        { deadline: new Date(Date.now() + 30_000) },
        (e) => done(e),
      );
    });
    expect(err?.code).toBe(status.DEADLINE_EXCEEDED);
    expect(err?.details).toContain('the import did not finish within INGEST_TIMEOUT_MS=1000 ms');
    expect(err?.details).toContain('is still queued; it keeps going: check GetDataset alice later');
    const taskId = /ingest task (ingest:[0-9a-f-]+)/.exec(err?.details ?? '')?.[1];
    expect(taskId).toBeDefined();

    ingestion = startService(repoRoot, 'ingestion', { ...common, HTTP_PORT: String(await freePort()) });
    await waitReady(ingestion);
    let row: { status: string } | undefined;
    for (let i = 0; i < 300 && row?.status !== 'done'; i++) {
      [row] = await ds.query('SELECT status FROM tasks WHERE id = $1', [taskId]);
      if (row?.status !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(row?.status).toBe('done');

    const got = await new Promise<GetDatasetResponse>((ok, fail) => {
      client.getDataset({ name: 'alice' }, authorized(), (e, res) => (e ? fail(e) : ok(res)));
    });
    expect(got.dataset).toMatchObject({
      name: 'alice',
      kind: 'text',
      counts: expect.objectContaining({ documents: 1 }),
    });

    const exits = await Promise.all([gateway.stop('SIGTERM'), ingestion.stop('SIGTERM')]);
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  }, 120_000);
});
