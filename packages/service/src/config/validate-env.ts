import { redactSecretLooking } from '@precis/llm';
import { z } from 'zod';
import { type EnvConfig, type EnvSchema, redactUrl } from './env-schema.js';

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

// An empty value counts as unset, as in most .env tooling.
const setValue = (raw: unknown) => (typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined);

// One zod object over the variables: unset ones take their default, stay undefined or are missing.
function envObject(schema: EnvSchema) {
  const shape = Object.entries(schema).map(([name, spec]) => {
    const value =
      spec.default !== undefined
        ? spec.schema.default(spec.default)
        : spec.optional
          ? spec.schema.optional()
          : spec.schema;
    return [name, z.preprocess(setValue, value)];
  });
  return z.object(Object.fromEntries(shape));
}

// The first issue of each variable, as one readable part of the error line.
function problemsOf(
  schema: EnvSchema,
  env: Record<string, string | undefined>,
  issues: readonly z.core.$ZodIssue[],
): EnvProblem[] {
  const problems = new Map<string, EnvProblem>();
  for (const issue of issues) {
    const name = String(issue.path[0]);
    const spec = schema[name];
    if (!spec || problems.has(name)) continue;
    const raw = env[name];
    const message =
      setValue(raw) === undefined
        ? `${name} is required but not set; expected ${spec.expected} (${spec.description})`
        : `${name}=${shown(raw as string, spec.secret)} ${issue.message} (${spec.description})`;
    problems.set(name, { variable: name, message });
  }
  return [...problems.values()];
}

export function validateEnv<S extends EnvSchema>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
): EnvConfig<S> {
  const parsed = envObject(schema).safeParse(env);
  if (!parsed.success) throw new ConfigError(service, problemsOf(schema, env, parsed.error.issues));
  // Every variable of the schema is a key, set or not.
  const out = Object.fromEntries(Object.keys(schema).map((name) => [name, parsed.data[name]]));
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
