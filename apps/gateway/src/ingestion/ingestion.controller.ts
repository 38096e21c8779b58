import { performance } from 'node:perf_hooks';
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { Controller, Inject, UseFilters } from '@nestjs/common';
import { GrpcException, GrpcExceptionFilter, GrpcInternalException, GrpcMethod } from '@nestjs/microservices';
import type {
  GetDatasetRequest,
  GetDatasetResponse,
  ImportDatasetRequest,
  ImportDatasetResponse,
  ListDatasetsRequest,
  ListDatasetsResponse,
} from '@precis/contracts';
import { MetricsRegistry, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { IngestionService } from './ingestion.service.js';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

// Method names are the keys of the generated service definition (IngestionServiceService).
const SERVICE = 'IngestionService';
const GRPC_CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

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

  private async observe<T>(method: string, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    let code = 0;
    try {
      return await run();
    } catch (err) {
      if (err instanceof GrpcException) {
        code = err.getCode();
        throw err;
      }
      // Unexpected: keep the stack in the log, give the caller the message (not a bare UNKNOWN).
      this.logger.error({ err, method }, 'gRPC call failed unexpectedly');
      const internal = new GrpcInternalException(
        `${method} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      code = internal.getCode();
      throw internal;
    } finally {
      const name = GRPC_CODE_NAMES[code] ?? String(code);
      const ms = Math.round(performance.now() - t0);
      this.metrics
        .counter('precis_grpc_requests_total', 'gRPC calls by method and status code')
        .inc({ method, code: name });
      this.logger[code === 0 ? 'info' : 'warn']({ method, code: name, ms }, `gRPC ${method} ${name}`);
    }
  }
}
