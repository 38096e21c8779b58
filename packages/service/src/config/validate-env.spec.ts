import { describe, expect, it } from '@jest/globals';
import { commonEnv, workerEnv } from './common-env.js';
import { int, port, str, url } from './env-schema.js';
import { ConfigError, describeConfig, envExampleLines, validateEnv } from './validate-env.js';

const schema = {
  ...commonEnv({ httpPort: 8080 }),
  ...workerEnv({ concurrency: 4 }),
  GRPC_PORT: port({ default: 50051, description: 'gRPC listen port' }),
  API_KEY: str({ secret: true, description: 'key for the upstream API' }),
};

describe('validateEnv', () => {
  it('applies defaults and parses typed values', () => {
    const config = validateEnv('svc', schema, {
      API_KEY: 'k',
      HTTP_PORT: '9000',
      NATS_URL: 'nats://a:4222, nats://b:4222',
    });
    expect(config.HTTP_PORT).toBe(9000);
    expect(config.GRPC_PORT).toBe(50051);
    expect(config.NATS_URL).toEqual(['nats://a:4222', 'nats://b:4222']);
    expect(config.DATABASE_RUN_MIGRATIONS).toBe(true);
    expect(config.PRECIS_BUS_PREFIX).toBeUndefined();
    expect(config.TASK_RETRY_DELAYS_MS).toEqual([1000, 5000, 15000, 30000]);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('names the variable, the bad value and the expected shape in one line', () => {
    let error: unknown;
    try {
      validateEnv('gateway', schema, { API_KEY: 'k', HTTP_PORT: 'eighty' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const e = error as ConfigError;
    expect(e.variables).toEqual(['HTTP_PORT']);
    expect(e.message).toContain(
      'gateway: invalid configuration: HTTP_PORT="eighty" is not an integer in 1..65535',
    );
    expect(e.message).not.toContain('\n');
  });

  it('reports every invalid variable, required ones included', () => {
    try {
      validateEnv('svc', schema, { GRPC_PORT: '70000', DATABASE_URL: 'mysql://x/y', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      const e = err as ConfigError;
      expect(e.variables.sort()).toEqual(['API_KEY', 'DATABASE_URL', 'GRPC_PORT', 'LOG_LEVEL']);
      expect(e.message).toContain('API_KEY is required but not set');
      expect(e.message).toContain(
        'LOG_LEVEL="loud" is not one of fatal, error, warn, info, debug, trace, silent',
      );
    }
  });

  it('never echoes a secret value, and masks URL passwords', () => {
    const s = {
      TOKEN: int({ secret: true, description: 'a numeric secret' }),
      DB: url({ protocols: ['postgres'], description: 'db' }),
    };
    try {
      validateEnv('svc', s, { TOKEN: 'hunter2', DB: 'postgres://u:pw@h/db' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toContain('TOKEN=<redacted> is not an integer');
      expect((err as Error).message).not.toContain('hunter2');
    }
    try {
      validateEnv('svc', s, { TOKEN: '1', DB: 'mysql://u:pw@h/db' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toContain(
        'DB="mysql://u:***@h/db" is not a URL like postgres://host:port',
      );
    }
    const ok = validateEnv('svc', { DB: s.DB }, { DB: 'postgres://u:pw@h/db' });
    expect(describeConfig({ DB: s.DB }, ok)).toEqual({ DB: 'postgres://u:***@h/db' });
  });

  it('rejects a bus prefix that would widen subjects', () => {
    expect(() => validateEnv('svc', schema, { API_KEY: 'k', PRECIS_BUS_PREFIX: 'a.>' })).toThrow(
      /PRECIS_BUS_PREFIX="a\.>" is not a letter followed by/,
    );
  });

  it('writes .env.example lines with defaults, leaving secrets empty', () => {
    const lines = envExampleLines(schema);
    expect(lines).toContain('HTTP_PORT=8080');
    expect(lines).toContain('NATS_URL=nats://127.0.0.1:4222');
    expect(lines).toContain('# API_KEY=');
  });
});

describe('a key put into the wrong variable', () => {
  it('is masked in the configuration error', () => {
    const key = 'Zq3xR9vT2mB7nK4pL8sW1yH6jF0cD5gA';
    try {
      validateEnv('svc', { PORT: int({ description: 'a port' }) }, { PORT: key });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toBe(
        'svc: invalid configuration: PORT="[redacted: looks like a secret]" is not an integer (a port) (every variable is described in .env.example)',
      );
    }
  });
});
