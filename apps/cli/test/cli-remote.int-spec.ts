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
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import {
  DatasetConflictError,
  DatasetNotFoundError,
  DatasetValidationError,
  isDatasetKind,
} from '@precis/ingest';
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

function unary<Req, Res>(fn: (req: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
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
        if (!isDatasetKind(req.kind)) throw new Error(`unknown dataset kind ${req.kind}`);
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
      listDatasets: unary(async () => ({ datasets: (await ingestion.listDatasets()).map(toProto) })),
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
      {},
    );
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain(`imported into gateway at ${address}`);

    const show = await runCli(['--remote', address, 'datasets', 'show', 'opinions', '--json'], {});
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      name: 'opinions',
      kind: 'summeval-op',
      counts: { documents: 32, products: 32, reviews: 256, summaries: 416 },
    });
    const list = await runCli(['--remote', address, 'datasets', 'ls', '--json'], {});
    expect(JSON.parse(list.stdout).map((d: { name: string }) => d.name)).toEqual(['opinions']);
  });

  it('passes the service error through as one line and exits non-zero', async () => {
    const bad = join(tmp, 'empty.jsonl');
    await writeFile(bad, '');
    const run = await runCli(['--remote', address, 'ingest', 'jsonl', bad, '--dataset', 'e'], {});
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(new RegExp(`^precis: error: ${bad}: file is empty`));
    const missing = await runCli(['--remote', address, 'datasets', 'show', 'nope'], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dataset "nope" not found');
  });

  it('says clearly when the gateway cannot be reached', async () => {
    const run = await runCli(['--remote', '127.0.0.1:1', 'datasets', 'ls'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot reach the gateway at 127.0.0.1:1');
    const malformed = await runCli(['--remote', 'http://x', 'datasets', 'ls'], {});
    expect(malformed.stderr).toContain('--remote expects the gateway as host:port');
  });
});
