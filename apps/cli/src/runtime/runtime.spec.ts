import { describe, expect, it } from '@jest/globals';
import { precisHome } from './home.js';
import { openRuntime } from './runtime.js';

describe('runtime selection', () => {
  it('puts the embedded home under PRECIS_HOME, else a new ./.precis where no parent has one', () => {
    expect(precisHome({ PRECIS_HOME: 'data' }, '/work')).toBe('/work/data');
    expect(precisHome({}, '/no-such-root/work')).toBe('/no-such-root/work/.precis');
  });

  it('rejects conflicting or malformed targets before connecting', async () => {
    await expect(
      openRuntime({ remote: 'gw:50051', databaseUrl: 'postgres://x/y', env: {}, cwd: '/' }),
    ).rejects.toThrow('--remote and --database-url exclude each other');
    await expect(openRuntime({ remote: 'gw', env: {}, cwd: '/' })).rejects.toThrow(
      '--remote expects the gateway as host:port',
    );
    await expect(openRuntime({ databaseUrl: ' ', env: {}, cwd: '/' })).rejects.toThrow(
      '--database-url is empty',
    );
    await expect(openRuntime({ databaseUrl: 'mysql://x/y', env: {}, cwd: '/' })).rejects.toThrow(
      'must start with postgres://',
    );
    await expect(
      openRuntime({
        databaseUrl: 'postgres://127.0.0.1:1/none',
        env: { DATABASE_PREPARED_STATEMENTS: 'maybe' },
        cwd: '/',
      }),
    ).rejects.toThrow(
      'DATABASE_PREPARED_STATEMENTS must be one of true/1/yes/on/false/0/no/off (got "maybe")',
    );
  });
});
