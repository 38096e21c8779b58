// A small, typed description of the environment a service reads. Each variable knows how to
// parse itself, its default and a one-line description; `validateEnv` turns a schema and
// `process.env` into a typed, frozen config object or one readable error line.

export class EnvValueError extends Error {}

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
  parse(raw: string): T;
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
  parse: (raw: string) => T,
  show: (value: T) => string = String,
): EnvVar<T> {
  return {
    type,
    description: opts.description,
    default: opts.default,
    optional: opts.optional === true,
    secret: opts.secret === true,
    expected,
    parse,
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
  return define<string | undefined>('string', expected, opts, (raw) => {
    if (opts.pattern && !opts.pattern.test(raw)) throw new EnvValueError(`is not ${expected}`);
    return raw;
  });
}

export interface IntOptions extends BaseOptions<number> {
  min?: number;
  max?: number;
}

export function int(opts: IntOptions): EnvVar<number> {
  const min = opts.min ?? Number.MIN_SAFE_INTEGER;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  const range =
    opts.min !== undefined && opts.max !== undefined
      ? ` in ${min}..${max}`
      : opts.min !== undefined
        ? ` >= ${min}`
        : opts.max !== undefined
          ? ` <= ${max}`
          : '';
  const expected = `an integer${range}`;
  return define('integer', expected, opts, (raw) => {
    if (!/^-?\d+$/.test(raw)) throw new EnvValueError(`is not ${expected}`);
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new EnvValueError(`is not ${expected}`);
    return n;
  });
}

export function port(opts: BaseOptions<number>): EnvVar<number> {
  return { ...int({ ...opts, min: 1, max: 65535 }), type: 'port' };
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function bool(opts: BaseOptions<boolean>): EnvVar<boolean> {
  return define('boolean', 'one of true/false/1/0/yes/no/on/off', opts, (raw) => {
    const v = raw.toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw new EnvValueError('is not one of true/false/1/0/yes/no/on/off');
  });
}

export function oneOf<const V extends string>(opts: BaseOptions<V> & { values: readonly V[] }): EnvVar<V> {
  const expected = `one of ${opts.values.join(', ')}`;
  return define('enum', expected, opts, (raw) => {
    if (!(opts.values as readonly string[]).includes(raw)) throw new EnvValueError(`is not ${expected}`);
    return raw as V;
  });
}

export interface UrlOptions extends BaseOptions<string> {
  // Accepted protocols without the colon, e.g. ['postgres', 'postgresql'].
  protocols: readonly string[];
}

function parseUrl(raw: string, protocols: readonly string[], expected: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EnvValueError(`is not ${expected}`);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, ''))) throw new EnvValueError(`is not ${expected}`);
  if (!url.hostname) throw new EnvValueError(`has no host; expected ${expected}`);
  return raw;
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
  return define('url', expected, opts, (raw) => parseUrl(raw, opts.protocols, expected), redactUrl);
}

// A comma-separated list of URLs (e.g. several NATS seed servers).
export function urlList(opts: BaseOptions<string[]> & { protocols: readonly string[] }): EnvVar<string[]> {
  const expected = `a comma-separated list of URLs like ${opts.protocols[0]}://host:port`;
  return define(
    'url-list',
    expected,
    opts,
    (raw) => {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      if (items.length === 0) throw new EnvValueError(`is not ${expected}`);
      return items.map((item) => parseUrl(item, opts.protocols, expected));
    },
    (value) => value.map(redactUrl).join(','),
  );
}

// A comma-separated list of integers, e.g. retry delays "1000,5000,15000".
export function intList(opts: BaseOptions<number[]> & { min?: number; max?: number }): EnvVar<number[]> {
  const min = opts.min ?? 0;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  const expected = `a comma-separated list of integers in ${min}..${max}`;
  return define(
    'integer-list',
    expected,
    opts,
    (raw) => {
      const items = raw.split(',').map((s) => s.trim());
      if (items.length === 0 || items.some((s) => !/^-?\d+$/.test(s)))
        throw new EnvValueError(`is not ${expected}`);
      const values = items.map(Number);
      if (values.some((n) => n < min || n > max)) throw new EnvValueError(`is not ${expected}`);
      return values;
    },
    (value) => value.join(','),
  );
}

// A comma-separated list of secrets (e.g. API keys), each checked against a pattern. An invalid
// entry is named by its position only: the value is never shown.
export function secretList(
  opts: { description: string; pattern: RegExp; patternHint: string } & OptionalFlag,
): EnvVar<string[] | undefined> {
  const expected = `a comma-separated list of ${opts.patternHint}`;
  return define(
    'secret-list',
    expected,
    { ...opts, secret: true, optional: true },
    (raw) => {
      const items = raw.split(',').map((s) => s.trim());
      const bad = items.findIndex((s) => !opts.pattern.test(s));
      if (bad >= 0) throw new EnvValueError(`entry ${bad + 1} of ${items.length} is not ${opts.patternHint}`);
      return items;
    },
    (value) => `${value?.length ?? 0} entries`,
  );
}
