import { ENV_BOOL_WORDS, ENV_FALSE_WORDS, ENV_TRUE_WORDS } from '@precis/db';
import { z } from 'zod';

// A small, typed description of the environment a service reads. Each variable is a zod schema
// over its (trimmed, non-empty) text plus its default and a one-line description; `validateEnv`
// turns a schema and `process.env` into a typed, frozen config object or one readable error line.

export interface EnvVar<T> {
  readonly type: string;
  readonly description: string;
  // `undefined` means required (unless `optional`).
  readonly default: T | undefined;
  readonly optional: boolean;
  // Secret values are never printed (errors, boot logs, .env.example).
  readonly secret: boolean;
  // Human-readable shape shown in errors, e.g. "an integer in 1..65535".
  readonly expected: string;
  // Its issues' messages follow `NAME="value" ` in the error line, e.g. "is not an integer".
  readonly schema: z.ZodType<T, string>;
  show(value: T): string;
}

export type EnvSchema = Record<string, EnvVar<unknown>>;

export type EnvConfig<S extends EnvSchema> = {
  readonly [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never;
};

interface BaseOptions<T> {
  description: string;
  default?: T;
  secret?: boolean;
}

interface OptionalFlag {
  optional: true;
}

function define<T>(
  type: string,
  expected: string,
  opts: BaseOptions<T> & { optional?: boolean },
  schema: z.ZodType<T, string>,
  show: (value: T) => string = String,
): EnvVar<T> {
  return {
    type,
    description: opts.description,
    default: opts.default,
    optional: opts.optional === true,
    secret: opts.secret === true,
    expected,
    schema,
    show,
  };
}

export interface StringOptions extends BaseOptions<string> {
  pattern?: RegExp;
  // Describes `pattern` in words for the error message.
  patternHint?: string;
}

export function str(opts: StringOptions & OptionalFlag): EnvVar<string | undefined>;
export function str(opts: StringOptions): EnvVar<string>;
export function str(opts: StringOptions & { optional?: boolean }): EnvVar<string | undefined> {
  const expected =
    opts.patternHint ?? (opts.pattern ? `a string matching ${opts.pattern}` : 'a non-empty string');
  const schema = opts.pattern ? z.string().regex(opts.pattern, `is not ${expected}`) : z.string();
  return define<string | undefined>('string', expected, opts, schema);
}

export interface IntOptions extends BaseOptions<number> {
  min?: number;
  max?: number;
}

// Digits only (no "1e3", "0x10" or "12abc"), then a safe integer within the bounds.
function integer(notExpected: string, min?: number, max?: number): z.ZodType<number, string> {
  let n = z.int(notExpected);
  if (min !== undefined) n = n.min(min, notExpected);
  if (max !== undefined) n = n.max(max, notExpected);
  return z
    .string()
    .regex(/^-?\d+$/, notExpected)
    .transform(Number)
    .pipe(n);
}

export function int(opts: IntOptions): EnvVar<number> {
  const { min, max } = opts;
  const range =
    min !== undefined && max !== undefined
      ? ` in ${min}..${max}`
      : min !== undefined
        ? ` >= ${min}`
        : max !== undefined
          ? ` <= ${max}`
          : '';
  const expected = `an integer${range}`;
  return define('integer', expected, opts, integer(`is not ${expected}`, min, max));
}

export function port(opts: BaseOptions<number>): EnvVar<number> {
  return { ...int({ ...opts, min: 1, max: 65535 }), type: 'port' };
}

export function bool(opts: BaseOptions<boolean>): EnvVar<boolean> {
  const expected = `one of ${ENV_BOOL_WORDS}`;
  const schema = z.stringbool({
    truthy: [...ENV_TRUE_WORDS],
    falsy: [...ENV_FALSE_WORDS],
    error: `is not ${expected}`,
  });
  return define('boolean', expected, opts, schema);
}

export function oneOf<const V extends string>(opts: BaseOptions<V> & { values: readonly V[] }): EnvVar<V> {
  const expected = `one of ${opts.values.join(', ')}`;
  const schema = z.enum(opts.values as readonly [V, ...V[]], { error: `is not ${expected}` });
  return define('enum', expected, opts, schema as z.ZodType<V, string>);
}

export interface UrlOptions extends BaseOptions<string> {
  // Accepted protocols without the colon, e.g. ['postgres', 'postgresql'].
  protocols: readonly string[];
}

function urlText(protocols: readonly string[], expected: string): z.ZodType<string, string> {
  return z
    .url({ protocol: new RegExp(`^(${protocols.join('|')})$`), error: `is not ${expected}`, abort: true })
    .refine((raw) => new URL(raw).hostname !== '', `has no host; expected ${expected}`);
}

// URLs may carry a password (postgres://user:pass@host/db): it is masked wherever shown.
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.password) return raw;
    url.password = '***';
    return url.toString();
  } catch {
    return raw;
  }
}

export function url(opts: UrlOptions): EnvVar<string> {
  const expected = `a URL like ${opts.protocols[0]}://host:port`;
  return define('url', expected, opts, urlText(opts.protocols, expected), redactUrl);
}

// The entries of a comma-separated value, trimmed.
const entries = z.string().transform((raw) => raw.split(',').map((s) => s.trim()));

// A comma-separated list of URLs (e.g. several NATS seed servers); empty entries are skipped.
export function urlList(opts: BaseOptions<string[]> & { protocols: readonly string[] }): EnvVar<string[]> {
  const expected = `a comma-separated list of URLs like ${opts.protocols[0]}://host:port`;
  const schema = entries
    .transform((items) => items.filter((s) => s.length > 0))
    .pipe(z.array(urlText(opts.protocols, expected)).min(1, `is not ${expected}`));
  return define('url-list', expected, opts, schema, (value) => value.map(redactUrl).join(','));
}

// A comma-separated list of integers, e.g. retry delays "1000,5000,15000".
export function intList(opts: BaseOptions<number[]> & { min?: number; max?: number }): EnvVar<number[]> {
  const min = opts.min ?? 0;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  const expected = `a comma-separated list of integers in ${min}..${max}`;
  const schema = entries.pipe(z.array(integer(`is not ${expected}`, min, max)));
  return define('integer-list', expected, opts, schema, (value) => value.join(','));
}

// A comma-separated list of secrets (e.g. API keys), each checked against a pattern. An invalid
// entry is named by its position only: the value is never shown.
export function secretList(
  opts: { description: string; pattern: RegExp; patternHint: string } & OptionalFlag,
): EnvVar<string[] | undefined> {
  const schema = entries.superRefine((items, ctx) => {
    const bad = items.findIndex((s) => !opts.pattern.test(s));
    if (bad >= 0)
      ctx.addIssue({
        code: 'custom',
        message: `entry ${bad + 1} of ${items.length} is not ${opts.patternHint}`,
      });
  });
  return define(
    'secret-list',
    `a comma-separated list of ${opts.patternHint}`,
    { ...opts, secret: true, optional: true },
    schema,
    (value) => `${value?.length ?? 0} entries`,
  );
}
