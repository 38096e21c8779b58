import { describe, expect, it } from '@jest/globals';
import { pluginAddressEnv } from './plugin-address-env.js';
import { ConfigError, describeConfig, envExampleLines, validateEnv } from './validate-env.js';

const schema = pluginAddressEnv();
const DESCRIPTION =
  'summarizer plugin addresses a submitted spec may name, comma-separated; unset = plugins off (the same list on the gateway and the summarization service)';

describe('PRECIS_PLUGIN_ADDRESSES', () => {
  it('is off when unset or empty, and a policy of the listed patterns when set', () => {
    for (const env of [{}, { PRECIS_PLUGIN_ADDRESSES: '' }, { PRECIS_PLUGIN_ADDRESSES: '  ' }]) {
      const off = validateEnv('summarization', schema, env).PRECIS_PLUGIN_ADDRESSES;
      expect([off.off, off.allows('127.0.0.1:50170')]).toEqual([true, false]);
    }
    const config = validateEnv('summarization', schema, {
      PRECIS_PLUGIN_ADDRESSES: '127.0.0.1:50170, *.plugins.svc.cluster.local:*',
    });
    const policy = config.PRECIS_PLUGIN_ADDRESSES;
    expect([policy.allows('127.0.0.1:50170'), policy.allows('a.plugins.svc.cluster.local:9')]).toEqual([
      true,
      true,
    ]);
    expect(policy.allows('127.0.0.1:5432')).toBe(false);
    expect(describeConfig(schema, config)).toEqual({
      PRECIS_PLUGIN_ADDRESSES: '127.0.0.1:50170,*.plugins.svc.cluster.local:*',
    });
  });

  it('stops the boot with one line naming the variable and the bad entry', () => {
    let error: unknown;
    try {
      validateEnv('gateway', schema, { PRECIS_PLUGIN_ADDRESSES: '127.0.0.1:50170,plugin' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      'gateway: invalid configuration: PRECIS_PLUGIN_ADDRESSES="127.0.0.1:50170,plugin" entry 2 of 2 ("plugin") is not host:port; ' +
        'expected host:port patterns: host:port, host:* (any port), *.domain:port (any name under domain), [ipv6]:port, *:* (any address) ' +
        `(${DESCRIPTION}) (every variable is described in .env.example)`,
    );
  });

  it('is listed for .env.example as off', () => {
    expect(envExampleLines(schema)).toEqual([
      `# ${DESCRIPTION}; a comma-separated list of host:port patterns: host:port, host:* (any port), *.domain:port (any name under domain), [ipv6]:port, *:* (any address)`,
      'PRECIS_PLUGIN_ADDRESSES=',
    ]);
  });
});
