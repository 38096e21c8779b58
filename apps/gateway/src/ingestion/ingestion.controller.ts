import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { Controller, Inject, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  GetDatasetRequest,
  GetDatasetResponse,
  ImportDatasetRequest,
  ImportDatasetResponse,
  ListDatasetsRequest,
  ListDatasetsResponse,
} from '@precis/contracts';
import { MetricsRegistry, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { observeCall } from '../grpc/observe-call.js';
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
    private readonly metrics: MetricsRegistry,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  @GrpcMethod(SERVICE, 'importDataset')
  importDataset(
    request: ImportDatasetRequest,
    _metadata: Metadata,
    call: ServerUnaryCall<ImportDatasetRequest, ImportDatasetResponse>,
  ): Promise<ImportDatasetResponse> {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    return this.observe('ImportDataset', () => this.importDatasetUseCase.execute(request, abort.signal));
  }

  @GrpcMethod(SERVICE, 'listDatasets')
  listDatasets(request: ListDatasetsRequest): Promise<ListDatasetsResponse> {
    return this.observe('ListDatasets', async () => ({
      datasets: await this.datasets.list(request.kind ?? ''),
    }));
  }

  @GrpcMethod(SERVICE, 'getDataset')
  getDataset(request: GetDatasetRequest): Promise<GetDatasetResponse> {
    return this.observe('GetDataset', async () => ({ dataset: await this.datasets.get(request.name ?? '') }));
  }

  private observe<T>(method: string, run: () => Promise<T>): Promise<T> {
    return observeCall({ metrics: this.metrics, logger: this.logger }, method, run);
  }
}
