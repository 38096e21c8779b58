// The generated grpc-js definitions serve and call over a real loopback connection.

import { credentials, Metadata, Server, ServerCredentials, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type ImportDatasetResponse,
  ImportStatus,
  IngestionServiceClient,
  type IngestionServiceServer,
  IngestionServiceService,
  type RunServiceServer,
  RunServiceService,
  type SummarizeResponse,
  SummarizerServiceClient,
  type SummarizerServiceServer,
  SummarizerServiceService,
  SummaryRole,
} from '@precis/contracts';

function unimplemented(name: string) {
  return (_call: unknown, callback: (err: Partial<ServiceError> | null) => void) =>
    callback({ code: status.UNIMPLEMENTED, details: `${name} is not served by this test` });
}

const summarizer: SummarizerServiceServer = {
  describe: (_call, callback) =>
    callback(null, {
      name: 'echo',
      version: '1.0.0',
      description: 'first words of each input',
      roles: [SummaryRole.SUMMARY_ROLE_CHUNK, SummaryRole.SUMMARY_ROLE_MERGE],
      contextWindowTokens: 8192,
      defaultParams: { words: '3' },
    }),
  summarize: (call, callback) => {
    const req = call.request;
    if (req.role === SummaryRole.SUMMARY_ROLE_UPDATE) {
      callback({ code: status.INVALID_ARGUMENT, details: 'role SUMMARY_ROLE_UPDATE is not supported' });
      return;
    }
    const n = Number(req.params.words ?? '3');
    const text = req.texts.map((t) => t.split(/\s+/).slice(0, n).join(' ')).join(' / ');
    callback(null, {
      text: `${req.priorContext ? `[${req.priorContext}] ` : ''}${text}`,
      usage: { promptTokens: 10, completionTokens: 5_000_000_000, costUsd: 0, calls: 1, cachedCalls: 0 },
      producer: `echo:${call.metadata.get('x-test')[0] ?? ''}`,
      metadataJson: '',
    });
  },
};

const ingestion: IngestionServiceServer = {
  importDataset: (call, callback) =>
    callback(null, {
      status: ImportStatus.IMPORT_STATUS_IMPORTED,
      dataset: {
        id: '00000000-0000-4000-8000-000000000001',
        name: call.request.datasetName,
        kind: call.request.kind,
        sourcePath: call.request.path,
        sourceSha256: 'abc',
        counts: { documents: 2, chunks: 10 },
        metadataJson: '{}',
        createTime: new Date('2026-01-01T00:00:00Z'),
        updateTime: undefined,
      },
    }),
  listDatasets: unimplemented('ListDatasets'),
  getDataset: unimplemented('GetDataset'),
};

const runs: RunServiceServer = {
  createRun: unimplemented('CreateRun'),
  getRun: unimplemented('GetRun'),
  listRuns: unimplemented('ListRuns'),
  cancelRun: unimplemented('CancelRun'),
  getRunReport: unimplemented('GetRunReport'),
  getLeaderboard: unimplemented('GetLeaderboard'),
  getMetaReport: unimplemented('GetMetaReport'),
  listSamples: unimplemented('ListSamples'),
  getSideBySide: unimplemented('GetSideBySide'),
  getDocumentTrace: unimplemented('GetDocumentTrace'),
  listDocumentCalls: unimplemented('ListDocumentCalls'),
  getRunFacts: unimplemented('GetRunFacts'),
};

describe('grpc-js service definitions', () => {
  let server: Server;
  let address: string;

  beforeAll(async () => {
    server = new Server();
    server.addService(SummarizerServiceService, summarizer);
    server.addService(IngestionServiceService, ingestion);
    server.addService(RunServiceService, runs);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    address = `127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  it('uses the documented gRPC method paths', () => {
    expect(SummarizerServiceService.summarize.path).toBe('/precis.v1.SummarizerService/Summarize');
    expect(IngestionServiceService.importDataset.path).toBe('/precis.v1.IngestionService/ImportDataset');
    expect(RunServiceService.createRun.path).toBe('/precis.v1.RunService/CreateRun');
  });

  it('calls a Summarizer plugin', async () => {
    const client = new SummarizerServiceClient(address, credentials.createInsecure());
    try {
      const described = await new Promise((resolve, reject) =>
        client.describe({}, (err, res) => (err ? reject(err) : resolve(res))),
      );
      expect(described).toEqual(
        expect.objectContaining({
          name: 'echo',
          roles: [SummaryRole.SUMMARY_ROLE_CHUNK, SummaryRole.SUMMARY_ROLE_MERGE],
        }),
      );
      const md = new Metadata();
      md.set('x-test', 'yes');
      const res = await new Promise<SummarizeResponse>((resolve, reject) =>
        client.summarize(
          {
            runId: 'r',
            taskId: 't',
            role: SummaryRole.SUMMARY_ROLE_MERGE,
            texts: ['one two three four', 'five six seven eight'],
            priorContext: 'ctx',
            budgetWords: 100,
            params: { words: '2' },
            documentId: 'd',
            level: 1,
            index: 0,
            system: 's',
          },
          md,
          (err, r) => (err ? reject(err) : resolve(r)),
        ),
      );
      expect(res.text).toBe('[ctx] one two / five six');
      expect(res.producer).toBe('echo:yes');
      expect(res.usage?.completionTokens).toBe(5_000_000_000);

      const err = await new Promise<ServiceError>((resolve, reject) =>
        client.summarize(
          {
            runId: 'r',
            taskId: 't',
            role: SummaryRole.SUMMARY_ROLE_UPDATE,
            texts: [],
            priorContext: '',
            budgetWords: 0,
            params: {},
            documentId: '',
            level: 0,
            index: 0,
            system: '',
          },
          (e) => (e ? resolve(e) : reject(new Error('expected an error'))),
        ),
      );
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.details).toBe('role SUMMARY_ROLE_UPDATE is not supported');
    } finally {
      client.close();
    }
  });

  it('imports a dataset through IngestionService (int64 counts as numbers, timestamps as Dates)', async () => {
    const client = new IngestionServiceClient(address, credentials.createInsecure());
    try {
      const res = await new Promise<ImportDatasetResponse>((resolve, reject) =>
        client.importDataset(
          { kind: 'kgds', path: '/data/KGDS.json', datasetName: 'kgds-dev', replace: false },
          (err, r) => (err ? reject(err) : resolve(r)),
        ),
      );
      expect(res.status).toBe(ImportStatus.IMPORT_STATUS_IMPORTED);
      expect(res.dataset?.name).toBe('kgds-dev');
      expect(res.dataset?.counts).toEqual({ documents: 2, chunks: 10 });
      expect(res.dataset?.createTime).toEqual(new Date('2026-01-01T00:00:00Z'));
      expect(res.dataset?.updateTime).toBeUndefined();
    } finally {
      client.close();
    }
  });
});
