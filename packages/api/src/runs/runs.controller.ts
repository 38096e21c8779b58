import type { Metadata } from '@grpc/grpc-js';
import { Controller, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  CancelRunRequest,
  CancelRunResponse,
  CreateRunRequest,
  CreateRunResponse,
  GetLeaderboardRequest,
  GetLeaderboardResponse,
  GetMetaReportRequest,
  GetMetaReportResponse,
  GetRunReportRequest,
  GetRunReportResponse,
  GetRunRequest,
  GetRunResponse,
  ListRunsRequest,
  ListRunsResponse,
} from '@precis/contracts';
import { GrpcCalls } from '../grpc/grpc-calls.js';
import { RunsService } from './runs.service.js';
import { CreateRunUseCase, SPEC_DIR_METADATA } from './usecases/create-run.usecase.js';

// Method names are the keys of the generated service definition (RunServiceService).
const SERVICE = 'RunService';

// precis.v1.RunService: translates gRPC calls and delegates.
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class RunsController {
  constructor(
    private readonly createRunUseCase: CreateRunUseCase,
    private readonly runs: RunsService,
    private readonly calls: GrpcCalls,
  ) {}

  @GrpcMethod(SERVICE, 'createRun')
  createRun(request: CreateRunRequest, metadata: Metadata): Promise<CreateRunResponse> {
    const dir = metadata?.get(SPEC_DIR_METADATA)[0];
    return this.calls.run('CreateRun', metadata, 'write', async (_caller, fields) => {
      const created = await this.createRunUseCase.execute(request, typeof dir === 'string' ? dir : undefined);
      Object.assign(fields, { runId: created.run?.id, name: created.run?.name, resumed: created.resumed });
      return created;
    });
  }

  @GrpcMethod(SERVICE, 'getRun')
  getRun(request: GetRunRequest, metadata: Metadata): Promise<GetRunResponse> {
    return this.calls.run(
      'GetRun',
      metadata,
      'read',
      async () => ({ run: await this.runs.get(request.runId ?? '') }),
      true,
    );
  }

  @GrpcMethod(SERVICE, 'listRuns')
  listRuns(request: ListRunsRequest, metadata: Metadata): Promise<ListRunsResponse> {
    return this.calls.run('ListRuns', metadata, 'read', () => this.runs.list(request));
  }

  @GrpcMethod(SERVICE, 'getRunReport')
  getRunReport(request: GetRunReportRequest, metadata: Metadata): Promise<GetRunReportResponse> {
    return this.calls.run('GetRunReport', metadata, 'read', () =>
      this.runs.report(
        request.runId ?? '',
        request.format || 'md',
        request.wide === true,
        request.alpha ?? 0,
      ),
    );
  }

  @GrpcMethod(SERVICE, 'getLeaderboard')
  getLeaderboard(request: GetLeaderboardRequest, metadata: Metadata): Promise<GetLeaderboardResponse> {
    return this.calls.run('GetLeaderboard', metadata, 'read', () =>
      this.runs.leaderboard({ ...request, runIds: request.runIds ?? [] }),
    );
  }

  @GrpcMethod(SERVICE, 'getMetaReport')
  getMetaReport(request: GetMetaReportRequest, metadata: Metadata): Promise<GetMetaReportResponse> {
    return this.calls.run('GetMetaReport', metadata, 'read', () => this.runs.meta(request.queryJson ?? ''));
  }

  @GrpcMethod(SERVICE, 'cancelRun')
  cancelRun(request: CancelRunRequest, metadata: Metadata): Promise<CancelRunResponse> {
    return this.calls.run('CancelRun', metadata, 'write', async (caller) => ({
      run: await this.runs.cancel(request.runId ?? '', request.reason ?? '', caller.name),
    }));
  }
}
