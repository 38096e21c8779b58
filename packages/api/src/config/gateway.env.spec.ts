import { describe, expect, it } from '@jest/globals';
import { validateEnv } from '@precis/service';
import { SERVE_ENV } from '../serve.js';
import { GATEWAY_ENV } from './gateway.env.js';

describe('gateway environment', () => {
  it('binds the gRPC port to loopback unless told otherwise, with no TLS and no mounted keys', () => {
    const config = validateEnv('gateway', GATEWAY_ENV, {});
    expect(config.GRPC_HOST).toBe('127.0.0.1');
    expect(config.GRPC_TLS_CERT).toBeUndefined();
    expect(config.PRECIS_API_KEYS).toBeUndefined();
    expect(validateEnv('gateway', GATEWAY_ENV, { GRPC_HOST: '0.0.0.0' }).GRPC_HOST).toBe('0.0.0.0');
  });

  it('takes no submitted plugin unless PRECIS_PLUGIN_ADDRESSES lists it, as `precis serve` does', () => {
    for (const schema of [GATEWAY_ENV, SERVE_ENV]) {
      expect(validateEnv('gateway', schema, {}).PRECIS_PLUGIN_ADDRESSES.allows('127.0.0.1:50170')).toBe(
        false,
      );
      const set = validateEnv('gateway', schema, { PRECIS_PLUGIN_ADDRESSES: '127.0.0.1:50170' });
      expect(set.PRECIS_PLUGIN_ADDRESSES.allows('127.0.0.1:50170')).toBe(true);
    }
  });
});
