import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { Controller, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  GetDatasetRequest,
  GetDatasetResponse,
  ImportDatasetRequest,
  ImportDatasetResponse,
  ListDatasetsRequest,
  ListDatasetsResponse,
} from '@precis/contracts';
import { GrpcCalls } from '../grpc/grpc-calls.js';
import { IngestionService } from './ingestion.service.js';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

// Method names are the keys of the generated service definition (IngestionServiceService).
const SERVICE = 'IngestionService';
// precis.v1.IngestionService: translates gRPC calls and delegates; logs one line per call.
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class IngestionController {
  constructor(
    private readonly importDatasetUseCase: ImportDatasetUseCase,
    private readonly datasets: IngestionService,
    private readonly calls: GrpcCalls,
  ) {}

  @GrpcMethod(SERVICE, 'importDataset')
  importDataset(
    request: ImportDatasetRequest,
    metadata: Metadata,
    call: ServerUnaryCall<ImportDatasetRequest, ImportDatasetResponse>,
  ): Promise<ImportDatasetResponse> {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    return this.calls.run('ImportDataset', metadata, 'write', (_caller, fields) => {
      Object.assign(fields, { dataset: request.datasetName, kind: request.kind });
      return this.importDatasetUseCase.execute(request, abort.signal);
    });
  }

  @GrpcMethod(SERVICE, 'listDatasets')
  listDatasets(request: ListDatasetsRequest, metadata: Metadata): Promise<ListDatasetsResponse> {
    return this.calls.run('ListDatasets', metadata, 'read', () => this.datasets.list(request));
  }

  @GrpcMethod(SERVICE, 'getDataset')
  getDataset(request: GetDatasetRequest, metadata: Metadata): Promise<GetDatasetResponse> {
    return this.calls.run('GetDataset', metadata, 'read', async () => ({
      dataset: await this.datasets.get(request.name ?? ''),
    }));
  }
}
