import type { Metadata } from '@grpc/grpc-js';
import { Controller, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  GetSideBySideRequest,
  GetSideBySideResponse,
  ListSamplesRequest,
  ListSamplesResponse,
} from '@precis/contracts';
import { GrpcCalls } from '../grpc/grpc-calls.js';
import { fromProtoSampleQuery, toProtoSamplePage, toProtoSideBySide } from './dto/samples.mapper.js';
import { SamplesService } from './samples.service.js';

const SERVICE = 'RunService';

// precis.v1.RunService's samples methods: the samples table and a document side by side.
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class SamplesController {
  constructor(
    private readonly samples: SamplesService,
    private readonly calls: GrpcCalls,
  ) {}

  @GrpcMethod(SERVICE, 'listSamples')
  listSamples(request: ListSamplesRequest, metadata: Metadata): Promise<ListSamplesResponse> {
    return this.calls.run('ListSamples', metadata, 'read', async () =>
      toProtoSamplePage(await this.samples.list(request.runId ?? '', fromProtoSampleQuery(request))),
    );
  }

  @GrpcMethod(SERVICE, 'getSideBySide')
  getSideBySide(request: GetSideBySideRequest, metadata: Metadata): Promise<GetSideBySideResponse> {
    return this.calls.run('GetSideBySide', metadata, 'read', async () =>
      toProtoSideBySide(await this.samples.sideBySide(request.runId ?? '', request.document ?? '')),
    );
  }
}
