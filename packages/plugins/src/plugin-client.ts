import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import {
  type DescribeResponse,
  type SummarizeRequest,
  type SummarizeResponse,
  SummarizerServiceClient,
} from '@precis/contracts';

// Why a plugin call failed, in words that name the plugin; `retryable` when another attempt may
// succeed (the plugin is down, slow or overloaded).
export class PluginError extends Error {
  // The same failure without the plugin's own words or how the connection failed (refused or
  // not answered alike): what a shared service stores, where anyone with a read key sees it.
  readonly opaque: string;
  // The detailed failure behind an opaque message, for the service's log.
  readonly detail?: string;

  constructor(
    message: string,
    readonly retryable: boolean,
    // Attempts made before giving up, when known.
    readonly attempts?: number,
    more: { opaque?: string; detail?: string } = {},
  ) {
    super(message);
    this.name = 'PluginError';
    this.opaque = more.opaque ?? message;
    if (more.detail !== undefined) this.detail = more.detail;
  }
}

const RETRYABLE = new Set([
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.RESOURCE_EXHAUSTED,
  status.ABORTED,
]);

function describeError(address: string, call: string, err: ServiceError, timeoutMs: number): PluginError {
  // Until Describe has answered, whatever is at the address is not known to be a plugin: any
  // failure, a silent open port's timeout too, reads the same as a closed port.
  const unreachable = `plugin ${address} unreachable`;
  if (err.code === status.DEADLINE_EXCEEDED) {
    const timedOut = `plugin ${address}: ${call} timed out after ${timeoutMs} ms`;
    return new PluginError(timedOut, true, undefined, {
      opaque: call === 'Describe' ? unreachable : timedOut,
    });
  }
  const opaque =
    call === 'Describe' || err.code === status.UNAVAILABLE
      ? unreachable
      : `plugin ${address}: ${call} failed with ${status[err.code] ?? err.code}`;
  if (err.code === status.UNAVAILABLE) {
    // grpc-js details carry resolver notes; the cause a user can act on is the refused connection.
    const why = /ECONNREFUSED/.test(err.details)
      ? 'connection refused'
      : err.details.split('. ')[0] || 'no answer';
    return new PluginError(`plugin ${address} is unreachable (${why}): is it running?`, true, undefined, {
      opaque,
    });
  }
  return new PluginError(
    `plugin ${address}: ${call} failed with ${status[err.code] ?? err.code}: ${err.details}`,
    RETRYABLE.has(err.code),
    undefined,
    { opaque },
  );
}

// One plugin process at host:port, spoken to over plaintext gRPC.
export class PluginClient {
  private readonly client: SummarizerServiceClient;

  constructor(readonly address: string) {
    this.client = new SummarizerServiceClient(address, credentials.createInsecure());
  }

  describe(timeoutMs: number): Promise<DescribeResponse> {
    return new Promise((resolve, reject) => {
      this.client.describe({}, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(describeError(this.address, 'Describe', err, timeoutMs)) : resolve(res),
      );
    });
  }

  summarize(request: SummarizeRequest, timeoutMs: number): Promise<SummarizeResponse> {
    return new Promise((resolve, reject) => {
      this.client.summarize(request, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(describeError(this.address, 'Summarize', err, timeoutMs)) : resolve(res),
      );
    });
  }

  close(): void {
    this.client.close();
  }
}
