import { type BenchmarkSpec, isGeneratedSystem } from './benchmark-spec.schema.js';
import { formatPath, SpecError } from './load-spec.js';

// Which summarizer plugin addresses a server may call: the operator's PRECIS_PLUGIN_ADDRESSES, a
// comma-separated list of host:port patterns. A plugin address in a submitted spec makes the
// server open a connection there, so a shared server calls only the addresses its operator lists.

export const PLUGIN_ADDRESSES_SETTING = 'PRECIS_PLUGIN_ADDRESSES';

export const PLUGIN_ADDRESS_PATTERNS_HINT =
  'host:port patterns: host:port, host:* (any port), *.domain:port (any name under domain), [ipv6]:port, *:* (any address)';

export class PluginAddressPatternError extends Error {}

interface Pattern {
  // Lower-case host; '*' any host; a leading '*.' any name under the rest.
  host: string;
  // null: any port.
  port: number | null;
}

const NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const PORT = /^\d{1,5}$/;

// `[::1]` -> `[::1]`, `[0:0::1]` -> `[::1]`: IPv6 hosts compare in their canonical form.
function canonicalIpv6(bracketed: string): string | undefined {
  try {
    const host = new URL(`http://${bracketed}/`).hostname;
    return host.startsWith('[') ? host : undefined;
  } catch {
    return undefined;
  }
}

// host:port as written in a spec or a pattern: IPv6 in brackets, names lower-cased.
function splitAddress(text: string): { host: string; port: string } | undefined {
  const at = text.lastIndexOf(':');
  if (at <= 0) return undefined;
  const rawHost = text.slice(0, at).toLowerCase();
  const port = text.slice(at + 1);
  if (rawHost.startsWith('[')) {
    const host = rawHost.endsWith(']') ? canonicalIpv6(rawHost) : undefined;
    return host ? { host, port } : undefined;
  }
  return rawHost.includes(':') ? undefined : { host: rawHost, port };
}

function parsePattern(entry: string): Pattern | string {
  const parts = splitAddress(entry);
  if (!parts) return 'is not host:port';
  const { host, port } = parts;
  let portValue: number | null = null;
  if (port !== '*') {
    if (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535)
      return 'has no port in 1..65535 (or * for any port)';
    portValue = Number(port);
  }
  if (host === '*' || host.startsWith('[')) return { host, port: portValue };
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (!NAME.test(name)) return 'has a host that is not a name, an IPv4 or a bracketed IPv6 address';
  // `*.0.1` would match IPv4 addresses by their last bytes: wildcards are for DNS names.
  if (name !== host && /^\d+$/.test(name.slice(name.lastIndexOf('.') + 1)))
    return 'puts *. before an IP address (a leading *. matches DNS names only)';
  return { host, port: portValue };
}

function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return pattern === host;
}

export class PluginAddressPolicy {
  private constructor(
    // The patterns as the operator wrote them, trimmed.
    readonly patterns: readonly string[],
    private readonly parsed: readonly Pattern[],
  ) {}

  // No address allowed: summarizer plugins are off.
  static none(): PluginAddressPolicy {
    return new PluginAddressPolicy([], []);
  }

  // Comma-separated patterns; an empty list is none. A bad entry is named by position and text.
  static parse(raw: string): PluginAddressPolicy {
    const entries = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const parsed = entries.map((entry, i) => {
      const p = parsePattern(entry);
      if (typeof p === 'string')
        throw new PluginAddressPatternError(
          `entry ${i + 1} of ${entries.length} (${JSON.stringify(entry)}) ${p}; expected ${PLUGIN_ADDRESS_PATTERNS_HINT}`,
        );
      return p;
    });
    return new PluginAddressPolicy(entries, parsed);
  }

  get off(): boolean {
    return this.parsed.length === 0;
  }

  allows(address: string): boolean {
    const parts = splitAddress(address);
    if (!parts || !PORT.test(parts.port)) return false;
    const port = Number(parts.port);
    return this.parsed.some((p) => (p.port === null || p.port === port) && hostMatches(p.host, parts.host));
  }

  // Why an address is refused, naming the setting; `where` says which process refused it.
  refusal(address: string, where = 'this server'): string {
    const how = this.off
      ? `summarizer plugins are off (the operator allows addresses in ${PLUGIN_ADDRESSES_SETTING})`
      : `the operator lists allowed ones in ${PLUGIN_ADDRESSES_SETTING}`;
    return `plugin address ${address} is not allowed on ${where}; ${how}`;
  }
}

// A submitted spec's plugin addresses against the server's policy, before anything connects or is
// written: every refused one, by its spec path.
export function checkPluginAddresses(
  spec: Pick<BenchmarkSpec, 'systems'>,
  policy: PluginAddressPolicy,
  file: string,
): void {
  const problems = spec.systems.flatMap((s, i) =>
    isGeneratedSystem(s) && s.plugin && !policy.allows(s.plugin.address)
      ? [`${formatPath(['systems', i, 'plugin', 'address'])}: ${policy.refusal(s.plugin.address)}`]
      : [],
  );
  if (problems.length > 0) throw new SpecError(file, problems);
}
