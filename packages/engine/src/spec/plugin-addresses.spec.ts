import { describe, expect, it } from '@jest/globals';
import { checkPluginAddresses, PluginAddressPatternError, PluginAddressPolicy } from './plugin-addresses.js';

const HINT =
  'expected host:port patterns: host:port, host:* (any port), *.domain:port (any name under domain), [ipv6]:port, *:* (any address)';

describe('PRECIS_PLUGIN_ADDRESSES patterns', () => {
  const policy = PluginAddressPolicy.parse(
    ' 10.0.0.5:9000 , Plugins.Internal:* ,*.svc.cluster.local:50051,[0:0::1]:7000',
  );

  it('keeps the patterns as written, trimmed, and allows exactly what they name', () => {
    expect(policy.patterns).toEqual([
      '10.0.0.5:9000',
      'Plugins.Internal:*',
      '*.svc.cluster.local:50051',
      '[0:0::1]:7000',
    ]);
    const allowed = (a: string) => policy.allows(a);
    expect(['10.0.0.5:9000', '10.0.0.5:9001', '10.0.0.50:9000'].map(allowed)).toEqual([true, false, false]);
    // Host names compare case-insensitively; host:* takes any port, on that host only.
    expect(['plugins.internal:1', 'PLUGINS.INTERNAL:65535', 'x.plugins.internal:1'].map(allowed)).toEqual([
      true,
      true,
      false,
    ]);
    // A leading *. is any name (one label or more) under the domain, never the domain itself.
    expect(
      [
        'sum.precis.svc.cluster.local:50051',
        'a.svc.cluster.local:50051',
        'svc.cluster.local:50051',
        'evil-svc.cluster.local:50051',
        'a.svc.cluster.local:50052',
      ].map(allowed),
    ).toEqual([true, true, false, false, false]);
    // IPv6 in brackets compares in canonical form.
    expect(['[::1]:7000', '[0:0:0:0:0:0:0:1]:7000', '[::2]:7000'].map(allowed)).toEqual([true, true, false]);
    // A port with leading zeros is the port the client dials.
    expect(allowed('10.0.0.5:09000')).toBe(true);
    expect(['127.0.0.1:9000', 'localhost:9000', '10.0.0.5', ''].map(allowed)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('allows nothing when empty, and everything with *:*', () => {
    for (const off of [PluginAddressPolicy.none(), PluginAddressPolicy.parse(' , ')]) {
      expect(off.off).toBe(true);
      expect(off.allows('127.0.0.1:50170')).toBe(false);
    }
    const any = PluginAddressPolicy.parse('*:*');
    expect(['127.0.0.1:5432', '[::1]:1', 'x.y:65535'].map((a) => any.allows(a))).toEqual([true, true, true]);
    expect(PluginAddressPolicy.parse('*:50170').allows('anything.at.all:50170')).toBe(true);
  });

  it('refuses a malformed entry by position and text, saying what a pattern looks like', () => {
    const error = (raw: string) => {
      try {
        PluginAddressPolicy.parse(raw);
      } catch (err) {
        expect(err).toBeInstanceOf(PluginAddressPatternError);
        return (err as Error).message;
      }
      throw new Error(`${raw} was accepted`);
    };
    expect(error('a:1,localhost')).toBe(`entry 2 of 2 ("localhost") is not host:port; ${HINT}`);
    expect(error('a:0')).toBe(`entry 1 of 1 ("a:0") has no port in 1..65535 (or * for any port); ${HINT}`);
    expect(error('a:65536')).toBe(
      `entry 1 of 1 ("a:65536") has no port in 1..65535 (or * for any port); ${HINT}`,
    );
    expect(error('a:http')).toBe(
      `entry 1 of 1 ("a:http") has no port in 1..65535 (or * for any port); ${HINT}`,
    );
    expect(error('::1:80')).toBe(`entry 1 of 1 ("::1:80") is not host:port; ${HINT}`);
    expect(error('[zz::1]:80')).toBe(`entry 1 of 1 ("[zz::1]:80") is not host:port; ${HINT}`);
    expect(error('http://a:80')).toBe(`entry 1 of 1 ("http://a:80") is not host:port; ${HINT}`);
    expect(error('a*.b:80')).toBe(
      `entry 1 of 1 ("a*.b:80") has a host that is not a name, an IPv4 or a bracketed IPv6 address; ${HINT}`,
    );
    expect(error('*.0.0.1:*')).toBe(
      `entry 1 of 1 ("*.0.0.1:*") puts *. before an IP address (a leading *. matches DNS names only); ${HINT}`,
    );
  });

  it('names the setting when it refuses an address, and says when plugins are off', () => {
    expect(policy.refusal('127.0.0.1:55432')).toBe(
      'plugin address 127.0.0.1:55432 is not allowed on this server; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES',
    );
    expect(PluginAddressPolicy.none().refusal('127.0.0.1:55432', 'this worker')).toBe(
      'plugin address 127.0.0.1:55432 is not allowed on this worker; summarizer plugins are off (the operator allows addresses in PRECIS_PLUGIN_ADDRESSES)',
    );
  });
});

describe('checkPluginAddresses', () => {
  const system = (name: string, address?: string) =>
    address === undefined
      ? { name, strategy: 'hierarchical', engine: 'lead' }
      : { name, strategy: 'hierarchical', plugin: { address } };
  const spec = (...systems: ReturnType<typeof system>[]) => ({ systems }) as never;

  it('refuses every plugin outside the policy by its spec path, and passes the others', () => {
    const policy = PluginAddressPolicy.parse('10.0.0.5:9000');
    expect(() =>
      checkPluginAddresses(spec(system('a', '10.0.0.5:9000'), system('b')), policy, 'spec.yaml'),
    ).not.toThrow();
    expect(() =>
      checkPluginAddresses(
        spec(
          system('a', '10.0.0.5:9000'),
          system('b'),
          system('c', '127.0.0.1:5432'),
          system('d', 'db:5432'),
        ),
        policy,
        '<CreateRun spec>',
      ),
    ).toThrow(
      '<CreateRun spec>: invalid benchmark spec\n' +
        '  - systems[2].plugin.address: plugin address 127.0.0.1:5432 is not allowed on this server; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES\n' +
        '  - systems[3].plugin.address: plugin address db:5432 is not allowed on this server; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES',
    );
  });

  it('refuses every plugin when plugins are off, and a spec without plugins passes', () => {
    expect(() => checkPluginAddresses(spec(system('b')), PluginAddressPolicy.none(), 'x')).not.toThrow();
    expect(() =>
      checkPluginAddresses(spec(system('a', '10.0.0.5:9000')), PluginAddressPolicy.none(), 'x'),
    ).toThrow(
      'x: invalid benchmark spec\n  - systems[0].plugin.address: plugin address 10.0.0.5:9000 is not allowed on this server; summarizer plugins are off (the operator allows addresses in PRECIS_PLUGIN_ADDRESSES)',
    );
  });
});
