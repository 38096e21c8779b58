import { describe, expect, it } from '@jest/globals';
import { validateEnv } from '@precis/service';
import { GATEWAY_ENV } from './gateway.env.js';

describe('gateway environment', () => {
  it('binds the gRPC port to loopback unless told otherwise, with no TLS and no mounted keys', () => {
    const config = validateEnv('gateway', GATEWAY_ENV, {});
    expect(config.GRPC_HOST).toBe('127.0.0.1');
    expect(config.GRPC_TLS_CERT).toBeUndefined();
    expect(config.PRECIS_API_KEYS).toBeUndefined();
    expect(validateEnv('gateway', GATEWAY_ENV, { GRPC_HOST: '0.0.0.0' }).GRPC_HOST).toBe('0.0.0.0');
  });
});
