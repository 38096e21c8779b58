import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { explainGrpcError } from './remote-access.js';

const grpcError = (code: status, details: string): ServiceError =>
  Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });

describe('explainGrpcError', () => {
  it('tells an unreachable gateway from one whose database or bus is down, both worth a retry', () => {
    const down = explainGrpcError('gw:50051', grpcError(status.UNAVAILABLE, 'No connection established'));
    expect(down.message).toBe(
      'cannot reach the gateway at gw:50051 (No connection established); check --remote host:port, that the gateway is running, and PRECIS_TLS_CA if it uses TLS',
    );
    expect(down.transient).toBe(true);
    const details =
      "GetRun: the gateway's database or message bus is unavailable; retry later (reference 3ccaffbd)";
    const busy = explainGrpcError('gw:50051', grpcError(status.UNAVAILABLE, details));
    expect(busy.message).toBe(`the gateway at gw:50051 answered: ${details}`);
    expect(busy.transient).toBe(true);
    expect(explainGrpcError('gw:50051', grpcError(status.DEADLINE_EXCEEDED, '')).transient).toBe(true);
  });

  it('passes the gateway message of a refusal on, not worth a retry', () => {
    const bad = explainGrpcError(
      'gw:50051',
      grpcError(status.INVALID_ARGUMENT, 'systems[0].params.chunkSize: expected a number'),
    );
    expect(bad.message).toBe('systems[0].params.chunkSize: expected a number');
    expect(bad.transient).toBe(false);
    expect(
      explainGrpcError('gw:50051', grpcError(status.UNAUTHENTICATED, 'missing or invalid API key')).message,
    ).toBe('the gateway at gw:50051 refused the API key in PRECIS_API_KEY: missing or invalid API key');
  });
});
