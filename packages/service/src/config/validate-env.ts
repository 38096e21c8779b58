import { redactSecretLooking } from '@precis/llm';
import { type EnvConfig, type EnvSchema, EnvValueError, redactUrl } from './env-schema.js';

export interface EnvProblem {
  variable: string;
  message: string;
}

// Every invalid variable of a schema, summed up in one line: the process prints exactly this
// line and exits, so a misconfigured container says what to fix in its first log line.
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: EnvProblem[],
  ) {
    super(
      `${service}: invalid configuration: ${problems.map((p) => p.message).join('; ')} ` +
        '(every variable is described in .env.example)',
    );
    this.name = 'ConfigError';
  }

  get variables(): string[] {
    return this.problems.map((p) => p.variable);
  }
}

// Quoted with JSON escapes (a newline in a value must not break the one-line promise), URL
// passwords masked, secrets not shown at all.
function shown(raw: string, secret: boolean): string {
  if (secret) return '<redacted>';
  // A key put into the wrong variable is not echoed either.
  const safe = redactSecretLooking(redactUrl(raw));
  return JSON.stringify(safe.length > 80 ? `${safe.slice(0, 77)}...` : safe);
}

export function validateEnv<S extends EnvSchema>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
): EnvConfig<S> {
  const problems: EnvProblem[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const raw = env[name];
    // An empty value counts as unset, as in most .env tooling.
    if (raw === undefined || raw.trim() === '') {
      if (spec.default !== undefined) out[name] = spec.default;
      else if (spec.optional) out[name] = undefined;
      else
        problems.push({
          variable: name,
          message: `${name} is required but not set; expected ${spec.expected} (${spec.description})`,
        });
      continue;
    }
    try {
      out[name] = spec.parse(raw.trim());
    } catch (err) {
      if (!(err instanceof EnvValueError)) throw err;
      problems.push({
        variable: name,
        message: `${name}=${shown(raw, spec.secret)} ${err.message} (${spec.description})`,
      });
    }
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  return Object.freeze(out) as EnvConfig<S>;
}

// The config as it may be logged: secrets hidden, URL passwords masked.
export function describeConfig<S extends EnvSchema>(schema: S, config: EnvConfig<S>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const value = (config as Record<string, unknown>)[name];
    if (value === undefined) continue;
    out[name] = spec.secret ? '<redacted>' : spec.show(value);
  }
  return out;
}

// `.env.example` lines for a schema: a comment with the description, then NAME=default.
export function envExampleLines<S extends EnvSchema>(schema: S): string[] {
  const lines: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const req = spec.default === undefined && !spec.optional ? ' (required)' : '';
    lines.push(`# ${spec.description}; ${spec.expected}${req}`);
    const value = spec.default === undefined || spec.secret ? '' : spec.show(spec.default);
    lines.push(`${spec.default === undefined ? '# ' : ''}${name}=${value}`);
  }
  return lines;
}
