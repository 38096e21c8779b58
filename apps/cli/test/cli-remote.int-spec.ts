import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Metadata,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServiceError,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type Dataset,
  ImportStatus,
  type IngestionServiceServer,
  IngestionServiceService,
} from '@precis/contracts';
import {
  createDataSource,
  createThrowawayDatabase,
  generateApiKey,
  type ThrowawayDatabase,
} from '@precis/db';
import { builtInFamilies } from '@precis/families';
import { DatasetConflictError, DatasetNotFoundError, DatasetValidationError } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import type { DatasetView } from '../src/runtime/ingestion-port.js';
import { LocalIngestion } from '../src/runtime/local-ingestion.js';
import { assertBuilt, DATASETS, runCli } from './run-cli.js';

// The gateway is built elsewhere; this in-test gRPC server speaks the same IngestionService
// contract so the CLI's --remote client is exercised over a real gRPC connection.
function toProto(d: DatasetView): Dataset {
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    sourcePath: d.sourcePath,
    sourceSha256: d.sourceSha256,
    counts: d.counts,
    metadataJson: JSON.stringify(d.metadata),
    createTime: d.createdAt ? new Date(d.createdAt) : undefined,
    updateTime: d.updatedAt ? new Date(d.updatedAt) : undefined,
  };
}

function grpcError(error: unknown): Partial<ServiceError> {
  const code =
    error instanceof DatasetNotFoundError
      ? status.NOT_FOUND
      : error instanceof DatasetValidationError
        ? status.INVALID_ARGUMENT
        : error instanceof DatasetConflictError
          ? status.ALREADY_EXISTS
          : status.INTERNAL;
  return { code, details: error instanceof Error ? error.message : String(error), metadata: new Metadata() };
}

const KEY = generateApiKey();
// What the CLI sends: PRECIS_API_KEY, as the gateway expects it.
const WITH_KEY = { PRECIS_API_KEY: KEY };

function unary<Req, Res>(fn: (req: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    if (call.metadata.get('authorization')[0] !== `Bearer ${KEY}`) {
      callback({
        code: status.UNAUTHENTICATED,
        details: 'missing or invalid API key',
        metadata: new Metadata(),
      });
      return;
    }
    fn(call.request).then(
      (res) => callback(null, res),
      (error) => callback(grpcError(error)),
    );
  };
}

describe('precis CLI --remote (gRPC IngestionService)', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let server: Server;
  let address: string;
  let tmp: string;

  beforeAll(async () => {
    assertBuilt();
    tmp = await mkdtemp(join(tmpdir(), 'precis-cli-remote-'));
    db = await createThrowawayDatabase('cli_remote');
    ds = await createDataSource({ url: db.url });
    const ingestion = new LocalIngestion(ds);
    const impl: IngestionServiceServer = {
      importDataset: unary(async (req) => {
        if (!builtInFamilies().datasetKinds.has(req.kind))
          throw new Error(`unknown dataset kind ${req.kind}`);
        const result = await ingestion.importDataset({
          kind: req.kind,
          path: req.path,
          name: req.datasetName,
          replace: req.replace,
        });
        const statusMap = {
          imported: ImportStatus.IMPORT_STATUS_IMPORTED,
          unchanged: ImportStatus.IMPORT_STATUS_UNCHANGED,
          replaced: ImportStatus.IMPORT_STATUS_REPLACED,
        };
        return { status: statusMap[result.status], dataset: toProto(result.dataset) };
      }),
      listDatasets: unary(async () => ({
        datasets: (await ingestion.listDatasets()).map(toProto),
        nextPageToken: '',
      })),
      getDataset: unary(async (req) => ({ dataset: toProto(await ingestion.getDataset(req.name)) })),
    };
    server = new Server();
    server.addService(IngestionServiceService, impl);
    const port = await new Promise<number>((resolvePort, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolvePort(p),
      ),
    );
    address = `127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await new Promise<void>((done) => (server ? server.tryShutdown(() => done()) : done()));
    await ds?.destroy();
    await db?.drop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('imports and shows a dataset through the gateway', async () => {
    const path = join(DATASETS, 'summeval-op/summeval-op.jsonl');
    const ingest = await runCli(
      ['--remote', address, 'ingest', 'summeval-op', path, '--dataset', 'opinions'],
      WITH_KEY,
    );
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain(`imported into gateway at ${address}`);

    const show = await runCli(['--remote', address, 'datasets', 'show', 'opinions', '--json'], WITH_KEY);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      name: 'opinions',
      kind: 'summeval-op',
      counts: { documents: 32, products: 32, reviews: 256, summaries: 416 },
    });
    const list = await runCli(['--remote', address, 'datasets', 'ls', '--json'], WITH_KEY);
    expect(JSON.parse(list.stdout).map((d: { name: string }) => d.name)).toEqual(['opinions']);
  });

  it('passes the service error through as one line and exits non-zero', async () => {
    const bad = join(tmp, 'empty.jsonl');
    await writeFile(bad, '');
    const run = await runCli(['--remote', address, 'ingest', 'jsonl', bad, '--dataset', 'e'], WITH_KEY);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(new RegExp(`^precis: error: ${bad}: file is empty`));
    const missing = await runCli(['--remote', address, 'datasets', 'show', 'nope'], WITH_KEY);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dataset "nope" not found');
  });

  it('needs PRECIS_API_KEY, and says when the gateway refuses it', async () => {
    const none = await runCli(['--remote', address, 'datasets', 'ls'], {});
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      "precis: error: --remote needs an API key: set PRECIS_API_KEY (create one with `precis keys create <name>` against the gateway's database)",
    );
    const malformed = await runCli(['--remote', address, 'datasets', 'ls'], { PRECIS_API_KEY: 'hunter2' });
    expect(malformed.stderr.trim()).toBe(
      'precis: error: PRECIS_API_KEY is not a Precis API key (expected precis_ and 43 characters, got 7 characters); copy it as `precis keys create` printed it',
    );
    const wrong = await runCli(['--remote', address, 'datasets', 'ls'], { PRECIS_API_KEY: generateApiKey() });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      `precis: error: the gateway at ${address} refused the API key in PRECIS_API_KEY: missing or invalid API key`,
    );
  });

  it('says clearly when the gateway cannot be reached', async () => {
    const run = await runCli(['--remote', '127.0.0.1:1', 'datasets', 'ls'], WITH_KEY);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot reach the gateway at 127.0.0.1:1');
    const malformed = await runCli(['--remote', 'http://x', 'datasets', 'ls'], WITH_KEY);
    expect(malformed.stderr).toContain('--remote expects the gateway as host:port');
  });
});
