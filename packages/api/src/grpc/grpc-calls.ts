import type { Metadata } from '@grpc/grpc-js';
import { Inject, Injectable } from '@nestjs/common';
import { MetricsRegistry, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { ApiKeyAuth, type CallScope, type Principal } from '../auth/api-key-auth.js';
import { observeCall } from './observe-call.js';

// One gRPC call of the gateway: authenticated (UNAUTHENTICATED / PERMISSION_DENIED first), then
// run, counted and logged with the caller's key name by observeCall.
@Injectable()
export class GrpcCalls {
  constructor(
    private readonly auth: ApiKeyAuth,
    private readonly metrics: MetricsRegistry,
    @Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger,
  ) {}

  run<T>(
    method: string,
    metadata: Metadata | undefined,
    needs: CallScope,
    // `fields` join the call's one log line (e.g. the run it created).
    handle: (caller: Principal, fields: Record<string, unknown>) => Promise<T>,
    quiet = false,
  ): Promise<T> {
    return observeCall(
      { metrics: this.metrics, logger: this.logger },
      method,
      async (fields) => {
        const caller = await this.auth.authenticate(metadata, needs);
        fields.key = caller.name;
        return handle(caller, fields);
      },
      quiet,
    );
  }
}
