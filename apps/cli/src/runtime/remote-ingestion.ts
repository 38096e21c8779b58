import { resolve } from 'node:path';
import type { Metadata, ServiceError } from '@grpc/grpc-js';
import {
  type Dataset,
  type ImportDatasetResponse,
  IngestionServiceClient,
  ImportStatus as ProtoImportStatus,
} from '@precis/contracts';
import { loadedFamilies } from '@precis/families';
import { type ImportStatus, orderCounts } from '@precis/ingest';
import type { DatasetView, ImportOutcome, ImportRequest, IngestionPort } from './ingestion-port.js';
import { callMetadata, grpcCall, type RemoteAccess } from './remote-access.js';

const DEADLINE_MS = { read: 30_000, import: 30 * 60_000 };

// gRPC client of precis.v1.IngestionService on a gateway (--remote host:port).
export class RemoteIngestion implements IngestionPort {
  private readonly client: IngestionServiceClient;

  constructor(
    private readonly address: string,
    private readonly access: RemoteAccess,
  ) {
    this.client = new IngestionServiceClient(address, access.channel);
  }

  async importDataset(request: ImportRequest): Promise<ImportOutcome> {
    // The service reads the file itself: send an absolute path (same machine or shared volume).
    const response = await this.call<ImportDatasetResponse>('import', (md, opts, cb) =>
      this.client.importDataset(
        {
          kind: request.kind,
          path: resolve(request.path),
          datasetName: request.name,
          replace: request.replace,
          ...(request.documentsPath === undefined ? {} : { documentsPath: resolve(request.documentsPath) }),
        },
        md,
        opts,
        cb,
      ),
    );
    if (!response.dataset)
      throw new Error(`gateway ${this.address} answered ImportDataset without a dataset`);
    return { status: fromProtoStatus(response.status), dataset: fromProtoDataset(response.dataset) };
  }

  // Every dataset, page by page.
  async listDatasets(filter: { kind?: string } = {}): Promise<DatasetView[]> {
    const out: DatasetView[] = [];
    let pageToken = '';
    do {
      const page = await this.call<{ datasets: Dataset[]; nextPageToken: string }>('read', (md, opts, cb) =>
        this.client.listDatasets({ kind: filter.kind ?? '', pageSize: 0, pageToken }, md, opts, cb),
      );
      out.push(...page.datasets.map(fromProtoDataset));
      pageToken = page.nextPageToken;
    } while (pageToken);
    return out;
  }

  async getDataset(name: string): Promise<DatasetView> {
    const response = await this.call<{ dataset?: Dataset }>('read', (md, opts, cb) =>
      this.client.getDataset({ name }, md, opts, cb),
    );
    if (!response.dataset) throw new Error(`gateway ${this.address} answered GetDataset without a dataset`);
    return fromProtoDataset(response.dataset);
  }

  close(): void {
    this.client.close();
  }

  private call<T>(
    kind: keyof typeof DEADLINE_MS,
    invoke: (
      metadata: Metadata,
      options: { deadline: Date },
      callback: (error: ServiceError | null, response: T) => void,
    ) => unknown,
  ): Promise<T> {
    return grpcCall<T>(this.address, DEADLINE_MS[kind], (options, callback) =>
      invoke(callMetadata(this.access), options, callback),
    );
  }
}

function fromProtoStatus(value: ProtoImportStatus): ImportStatus {
  switch (value) {
    case ProtoImportStatus.IMPORT_STATUS_IMPORTED:
      return 'imported';
    case ProtoImportStatus.IMPORT_STATUS_UNCHANGED:
      return 'unchanged';
    case ProtoImportStatus.IMPORT_STATUS_REPLACED:
      return 'replaced';
    default:
      throw new Error(`the gateway returned an unknown import status (${value})`);
  }
}

export function fromProtoDataset(d: Dataset): DatasetView {
  let metadata: Record<string, unknown> = {};
  if (d.metadataJson) {
    const parsed: unknown = JSON.parse(d.metadataJson);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      metadata = parsed as Record<string, unknown>;
  }
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    sourcePath: d.sourcePath,
    sourceSha256: d.sourceSha256,
    counts: orderCounts(d.kind, { ...d.counts }, loadedFamilies().datasetKinds),
    metadata,
    createdAt: d.createTime ? d.createTime.toISOString() : null,
    updatedAt: d.updateTime ? d.updateTime.toISOString() : null,
  };
}
