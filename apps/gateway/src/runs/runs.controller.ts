import type { Metadata } from '@grpc/grpc-js';
import { Controller, Inject, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  CancelRunRequest,
  CancelRunResponse,
  CreateRunRequest,
  CreateRunResponse,
  GetRunRequest,
  GetRunResponse,
  ListRunsRequest,
  ListRunsResponse,
} from '@precis/contracts';
import { MetricsRegistry, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { observeCall } from '../grpc/observe-call.js';
import { RunsService } from './runs.service.js';
import { CreateRunUseCase, SPEC_DIR_METADATA } from './usecases/create-run.usecase.js';

// Method names are the keys of the generated service definition (RunServiceService).
const SERVICE = 'RunService';

// precis.v1.RunService: translates gRPC calls and delegates.
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class RunsController {
  private readonly deps: { metrics: MetricsRegistry; logger: ServiceLogger };

  constructor(
    private readonly createRunUseCase: CreateRunUseCase,
    private readonly runs: RunsService,
    metrics: MetricsRegistry,
    @Inject(SERVICE_LOGGER) logger: ServiceLogger,
  ) {
    this.deps = { metrics, logger };
  }

  @GrpcMethod(SERVICE, 'createRun')
  createRun(request: CreateRunRequest, metadata: Metadata): Promise<CreateRunResponse> {
    const dir = metadata?.get(SPEC_DIR_METADATA)[0];
    return observeCall(this.deps, 'CreateRun', () =>
      this.createRunUseCase.execute(request, typeof dir === 'string' ? dir : undefined),
    );
  }

  @GrpcMethod(SERVICE, 'getRun')
  getRun(request: GetRunRequest): Promise<GetRunResponse> {
    return observeCall(
      this.deps,
      'GetRun',
      async () => ({ run: await this.runs.get(request.runId ?? '') }),
      true,
    );
  }

  @GrpcMethod(SERVICE, 'listRuns')
  listRuns(request: ListRunsRequest): Promise<ListRunsResponse> {
    return observeCall(this.deps, 'ListRuns', async () => ({
      runs: await this.runs.list(request.status, request.limit),
    }));
  }

  @GrpcMethod(SERVICE, 'cancelRun')
  cancelRun(request: CancelRunRequest): Promise<CancelRunResponse> {
    return observeCall(this.deps, 'CancelRun', async () => ({
      run: await this.runs.cancel(request.runId ?? '', request.reason ?? ''),
    }));
  }
}
