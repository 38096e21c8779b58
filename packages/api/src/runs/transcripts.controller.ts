import type { Metadata } from '@grpc/grpc-js';
import { Controller, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  GetDocumentTraceRequest,
  GetDocumentTraceResponse,
  GetRunFactsRequest,
  GetRunFactsResponse,
  ListDocumentCallsRequest,
  ListDocumentCallsResponse,
} from '@precis/contracts';
import { GrpcCalls } from '../grpc/grpc-calls.js';
import { toProtoLedgerCall, toProtoRunFacts } from './dto/transcript.mapper.js';
import { TranscriptsService } from './transcripts.service.js';

const SERVICE = 'RunService';

// precis.v1.RunService's transcript methods: a document's trace and model calls, a run's facts.
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class TranscriptsController {
  constructor(
    private readonly transcripts: TranscriptsService,
    private readonly calls: GrpcCalls,
  ) {}

  @GrpcMethod(SERVICE, 'getDocumentTrace')
  getDocumentTrace(request: GetDocumentTraceRequest, metadata: Metadata): Promise<GetDocumentTraceResponse> {
    return this.calls.run('GetDocumentTrace', metadata, 'read', async () => ({
      traceJson: JSON.stringify(await this.transcripts.trace(request.runId ?? '', request.document ?? '')),
    }));
  }

  @GrpcMethod(SERVICE, 'listDocumentCalls')
  listDocumentCalls(
    request: ListDocumentCallsRequest,
    metadata: Metadata,
  ): Promise<ListDocumentCallsResponse> {
    return this.calls.run('ListDocumentCalls', metadata, 'read', async () => {
      const page = await this.transcripts.calls(request.runId ?? '', request.document ?? '', {
        system: request.system,
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return {
        documentId: page.document.id,
        documentExternalId: page.document.externalId,
        total: page.total,
        calls: page.calls.map(toProtoLedgerCall),
        nextPageToken: page.nextPageToken,
      };
    });
  }

  @GrpcMethod(SERVICE, 'getRunFacts')
  getRunFacts(request: GetRunFactsRequest, metadata: Metadata): Promise<GetRunFactsResponse> {
    return this.calls.run('GetRunFacts', metadata, 'read', async () =>
      toProtoRunFacts(await this.transcripts.facts(request.runId ?? '')),
    );
  }
}
