// Gateway + ingestion as two separate processes against the real PostgreSQL (throwaway database)
// and NATS JetStream (streams isolated by PRECIS_BUS_PREFIX): ImportDataset over gRPC goes
// gateway -> ingest queue -> ingestion -> database -> task-completed event -> gateway.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus } from '@precis/bus';
import { type ImportDatasetResponse, ImportStatus, IngestionServiceClient } from '@precis/contracts';
import {
  createDataSource,
  createThrowawayDatabase,
  generateApiKey,
  type ThrowawayDatabase,
} from '@precis/db';
import {
  builtEntry,
  freePort,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
// The services read files only under INGEST_ROOT (compared after resolving symlinks: ../shared
// may be a link).
const datasetsRoot = realpathSync(resolve(repoRoot, '../shared/datasets'));
const summevalPath = resolve(datasetsRoot, 'summeval-op/summeval-op.jsonl');
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// The gateway's key (mounted in its PRECIS_API_KEYS) and call metadata carrying it.
const API_KEY = generateApiKey();
function authorized(): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${API_KEY}`);
  return md;
}

function unary<T>(
  invoke: (md: Metadata, opts: { deadline: Date }, cb: (err: ServiceError | null, res: T) => void) => unknown,
) {
  return new Promise<T>((ok, fail) => {
    invoke(authorized(), { deadline: new Date(Date.now() + 120_000) }, (err, res) =>
      err ? fail(err) : ok(res),
    );
  });
}

describe('gateway + ingestion services (separate processes)', () => {
  const prefix = `e2e_ingest_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let gateway: ServiceProcess;
  let ingestion: ServiceProcess;
  let client: IngestionServiceClient;

  beforeAll(async () => {
    builtEntry(repoRoot, 'gateway');
    builtEntry(repoRoot, 'ingestion');
    db = await createThrowawayDatabase('e2e_services_ingest');
    // Migrations run once up front; the services start with DATABASE_RUN_MIGRATIONS=false.
    const ds = await createDataSource({ url: db.url, runMigrations: true });
    await ds.destroy();
    const [gwHttp, gwGrpc, inHttp] = [await freePort(), await freePort(), await freePort()];
    const common = {
      DATABASE_URL: db.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      INGEST_ROOT: datasetsRoot,
      LOG_LEVEL: 'info',
    };
    gateway = startService(repoRoot, 'gateway', {
      ...common,
      HTTP_PORT: String(gwHttp),
      GRPC_HOST: '127.0.0.1',
      PRECIS_API_KEYS: API_KEY,
      GRPC_PORT: String(gwGrpc),
    });
    ingestion = startService(repoRoot, 'ingestion', { ...common, HTTP_PORT: String(inHttp) });
    const [gwReady, inReady] = await Promise.all([waitReady(gateway), waitReady(ingestion)]);
    expect(gwReady.status).toBe('ok');
    expect(inReady.status).toBe('ok');
    client = new IngestionServiceClient(`127.0.0.1:${gwGrpc}`, credentials.createInsecure());
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await Promise.all([gateway?.stop('SIGKILL'), ingestion?.stop('SIGKILL')]);
    const admin = await createNatsBus({ servers: natsUrl, prefix });
    await admin.deleteStreams();
    await admin.close();
    await db?.drop();
  }, 60_000);

  it('reports readiness with the database and NATS checks', async () => {
    const res = await fetch(`http://127.0.0.1:${gateway.httpPort}/health/ready`);
    const body = (await res.json()) as { details: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(body.details.database?.status).toBe('up');
    expect(body.details.nats?.status).toBe('up');
    const live = await fetch(`http://127.0.0.1:${ingestion.httpPort}/health/live`);
    expect(await live.json()).toMatchObject({ status: 'ok', service: 'ingestion', version: '0.1.0' });
  });

  it('imports SummEval-OP through ImportDataset and counts what was stored', async () => {
    const res = await unary<ImportDatasetResponse>((md, opts, cb) =>
      client.importDataset(
        { kind: 'summeval-op', path: summevalPath, datasetName: 'summeval', replace: false },
        md,
        opts,
        cb,
      ),
    );
    expect(res.status).toBe(ImportStatus.IMPORT_STATUS_IMPORTED);
    expect(res.dataset?.name).toBe('summeval');
    expect(res.dataset?.kind).toBe('summeval-op');
    expect(res.dataset?.counts).toMatchObject({ products: 32, reviews: 256, summaries: 416 });

    // Same file, same name: the import is idempotent.
    const again = await unary<ImportDatasetResponse>((md, opts, cb) =>
      client.importDataset(
        { kind: 'summeval-op', path: summevalPath, datasetName: 'summeval', replace: false },
        md,
        opts,
        cb,
      ),
    );
    expect(again.status).toBe(ImportStatus.IMPORT_STATUS_UNCHANGED);
    expect(again.dataset?.id).toBe(res.dataset?.id);

    const list = await unary<{ datasets: { name: string }[] }>((md, opts, cb) =>
      client.listDatasets({ kind: '', pageSize: 0, pageToken: '' }, md, opts, cb),
    );
    expect(list.datasets.map((d) => d.name)).toEqual(['summeval']);
    const got = await unary<{ dataset?: { counts: Record<string, number> } }>((md, opts, cb) =>
      client.getDataset({ name: 'summeval' }, md, opts, cb),
    );
    expect(got.dataset?.counts).toMatchObject({ products: 32, reviews: 256, summaries: 416 });

    // Both tasks are recorded as done, keyed by their task id.
    const ds = await createDataSource({ url: db.url, runMigrations: false });
    try {
      const rows: { status: string; n: string }[] = await ds.query(
        `SELECT status, count(*) AS n FROM tasks WHERE stage = 'ingest' GROUP BY status`,
      );
      expect(rows.map((r) => [r.status, Number(r.n)])).toEqual([['done', 2]]);
    } finally {
      await ds.destroy();
    }
  }, 120_000);

  it('answers with the ingestion error and the right gRPC status', async () => {
    const missing = resolve(datasetsRoot, 'no-such-file.jsonl');
    const err = await unary((md, opts, cb) =>
      client.importDataset(
        { kind: 'summeval-op', path: missing, datasetName: 'missing', replace: false },
        md,
        opts,
        cb,
      ),
    ).catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.NOT_FOUND);
    expect((err as ServiceError).details).toContain(`${missing}: file not found`);

    const badKind = await unary((md, opts, cb) =>
      client.importDataset(
        { kind: 'csv', path: summevalPath, datasetName: 'x', replace: false },
        md,
        opts,
        cb,
      ),
    ).catch((e: ServiceError) => e);
    expect((badKind as ServiceError).code).toBe(status.INVALID_ARGUMENT);
    expect((badKind as ServiceError).details).toContain('kind "csv" is not a dataset kind');

    const notFound = await unary((md, opts, cb) => client.getDataset({ name: 'nope' }, md, opts, cb)).catch(
      (e: ServiceError) => e,
    );
    expect((notFound as ServiceError).code).toBe(status.NOT_FOUND);
  }, 60_000);

  it('logs JSON lines with service, version and task ids', () => {
    const done = ingestion.logs.find((l) => l.msg === 'task done');
    expect(done).toMatchObject({
      service: 'ingestion',
      version: '0.1.0',
      stage: 'ingest',
      kind: 'import-dataset',
    });
    expect(String(done?.taskId)).toMatch(/^ingest:/);
    expect(gateway.rawStdout).toEqual([]);
    // Health probes (the tests polled /health/ready many times) leave no log lines; only Nest's
    // route table at startup mentions the path.
    const mentions = gateway.logs.filter((l) => JSON.stringify(l).includes('/health'));
    expect(mentions.every((l) => l.context === 'RouterExplorer' || l.context === 'RoutesResolver')).toBe(
      true,
    );
  });

  it('lets an in-flight import finish and ack when ingestion gets SIGTERM, then exits 0', async () => {
    const kgdsPath = resolve(datasetsRoot, 'kgds/KGDS.json');
    const startedBefore = ingestion.logs.filter((l) => l.msg === 'task started').length;
    const call = unary<ImportDatasetResponse>((md, opts, cb) =>
      client.importDataset(
        { kind: 'kgds', path: kgdsPath, datasetName: 'kgds', replace: false },
        md,
        opts,
        cb,
      ),
    );
    for (
      let i = 0;
      i < 600 && ingestion.logs.filter((l) => l.msg === 'task started').length === startedBefore;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const taskId = ingestion.logs.filter((l) => l.msg === 'task started').at(-1)?.taskId;
    const exit = await ingestion.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    const res = await call;
    expect(res.status).toBe(ImportStatus.IMPORT_STATUS_IMPORTED);
    expect(res.dataset?.counts).toMatchObject({ documents: 100, paragraphs: 1437, utterances: 412 });
    // The task was still running when the shutdown began, and finished before the process ended.
    const msgs = ingestion.logs.map((l) => `${String(l.msg)}${l.taskId === taskId ? ' <task>' : ''}`);
    expect(msgs.indexOf('ingestion shutting down')).toBeLessThan(msgs.indexOf('task done <task>'));
    expect(msgs.indexOf('task done <task>')).toBeLessThan(msgs.indexOf('bus closed'));
    expect(msgs.at(-1)).toBe('ingestion stopped');
  }, 120_000);

  it('shuts the gateway down gracefully on SIGTERM with exit code 0', async () => {
    expect(await gateway.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(gateway.logs.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['gateway shutting down', 'database closed']),
    );
    expect(gateway.logs.at(-1)?.msg).toBe('gateway stopped');
  }, 60_000);
});

describe('configuration errors', () => {
  it('stop a service with exit code 1 and one stderr line naming the variable', async () => {
    const proc = startService(repoRoot, 'gateway', { GRPC_PORT: 'fifty' });
    const exit = await proc.exited;
    expect(exit.code).toBe(1);
    const lines = proc.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'gateway: invalid configuration: GRPC_PORT="fifty" is not an integer in 1..65535',
    );
    expect(proc.logs).toEqual([]);
  });

  it('stop a service that cannot reach PostgreSQL in time, with a fatal line saying what and how to fix it', async () => {
    const port = await freePort();
    const proc = startService(repoRoot, 'ingestion', {
      DATABASE_URL: `postgres://postgres:pw@127.0.0.1:${port}/nowhere`,
      STARTUP_TIMEOUT_MS: '300',
      HTTP_PORT: String(await freePort()),
    });
    expect((await proc.exited).code).toBe(1);
    const fatal = proc.logs.find((l) => l.level === 'fatal');
    expect(String(fatal?.msg)).toContain(
      `gave up on PostgreSQL at postgres://postgres:***@127.0.0.1:${port}/nowhere`,
    );
    expect(String(fatal?.msg)).toContain('DATABASE_URL');
    expect(JSON.stringify(proc.logs)).not.toContain(':pw@');
  }, 30_000);

  it('never print a secret or a URL password', async () => {
    const proc = startService(repoRoot, 'ingestion', { DATABASE_URL: 'mysql://admin:s3cret@db/x' });
    expect((await proc.exited).code).toBe(1);
    expect(proc.stderr()).toContain('DATABASE_URL=');
    expect(proc.stderr()).not.toContain('s3cret');
  });
});
