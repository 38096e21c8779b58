import { z } from 'zod';
import { parsePrice } from '../cost.js';
import { readBatchSettings } from './batch-settings.js';
import { checker, type Fail, got, nonEmptyText } from './field-checks.js';
import type { ModelSpec } from './model-spec.js';
import { PROVIDER_FIELDS, readProviderSettings } from './provider-fields.js';

export interface RawIssue {
  path: string[];
  message: string;
}

const KNOWN_FIELDS = new Set([
  'kind',
  'baseURL',
  'apiKeyEnv',
  'model',
  'contextWindow',
  'maxConcurrency',
  'requestsPerMinute',
  'tokensPerMinute',
  'pricePer1MInput',
  'pricePer1MOutput',
  'timeoutMs',
  'maxRetries',
  'retryBaseMs',
  'retryMaxMs',
  'maxRetryAfterSeconds',
  'defaultMaxTokens',
  'pricePer1MCachedInput',
  'batch',
  ...PROVIDER_FIELDS,
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
// A value shaped like an API key rather than a variable name: 20+ characters after a providers'
// key prefix (sk-, sk_, hf_, gsk_, xai-...), or 24+ characters mixing lower-case letters and
// digits (variable names such as OPENAI_API_KEY are upper-case or short).
export function looksLikeKey(value: string): boolean {
  if (value.length >= 20 && /^(sk|pk|rk|hf|gsk|xai)[-_]/.test(value)) return true;
  return value.length >= 24 && /[a-z]/.test(value) && /[0-9]/.test(value);
}

// Checks the parsed document and applies defaults; collects every issue instead of stopping at one.
export function validateRegistry(data: unknown): { models: ModelSpec[]; issues: RawIssue[] } {
  const issues: RawIssue[] = [];
  if (!isObject(data))
    return { models: [], issues: [{ path: [], message: 'expected an object with a "models" map' }] };
  for (const key of Object.keys(data)) {
    if (key !== 'models' && key !== 'defaults')
      issues.push({ path: [key], message: 'unknown top-level key (expected "models", "defaults")' });
  }
  const defaults = data.defaults ?? {};
  if (!isObject(defaults)) issues.push({ path: ['defaults'], message: 'expected a map of model fields' });
  else checkUnknown(defaults, ['defaults'], issues);
  if (!isObject(data.models) || Object.keys(data.models).length === 0) {
    issues.push({ path: ['models'], message: 'expected a non-empty map of model name -> settings' });
    return { models: [], issues };
  }
  const models: ModelSpec[] = [];
  for (const [name, raw] of Object.entries(data.models)) {
    const at = ['models', name];
    if (!isObject(raw)) {
      issues.push({ path: at, message: 'expected a map of settings' });
      continue;
    }
    checkUnknown(raw, at, issues);
    const entry = { ...(isObject(defaults) ? defaults : {}), ...raw };
    const spec = toSpec(name, entry, at, issues);
    if (spec) models.push(spec);
  }
  return { models, issues };
}

function checkUnknown(obj: Record<string, unknown>, at: string[], issues: RawIssue[]) {
  for (const k of Object.keys(obj)) {
    if (!KNOWN_FIELDS.has(k))
      issues.push({ path: [...at, k], message: `unknown field (known: ${[...KNOWN_FIELDS].join(', ')})` });
  }
}

const apiKeyEnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .refine((v) => !looksLikeKey(v));
const httpUrl = z.string().regex(/^https?:\/\/[^\s/]+/);
const priceText = z
  .union([z.string(), z.number()])
  .refine((v) => parsePrice(v) !== null)
  .nullish();
const PRICE = 'must be a non-negative decimal USD amount per 1M tokens with at most 4 decimals';
const modelKind = z.enum(['chat', 'embedding']).nullish();
// Integers >= 0 and >= 1 (built once: a zod schema costs far more to build than to run).
const intAtLeast = [0, 1].map((min) => z.number().refine(Number.isInteger).min(min).nullish());

// Typed readers of an entry's fields; a wrong value is reported through `fail` and read as the default.
function fieldReaders(e: Record<string, unknown>, fail: Fail) {
  const check = checker(fail);
  const int = <D extends number | null>(field: string, def: D, min: 0 | 1): number | D =>
    check(field, e[field], intAtLeast[min]!, got(`must be an integer >= ${min}`)) ?? def;
  const str = (field: string, required: boolean): string | null => {
    if (e[field] === undefined || e[field] === null) {
      if (required) fail(field, 'is required');
      return null;
    }
    return check(field, e[field], nonEmptyText, got('must be a non-empty string')) ?? null;
  };
  const price = (field: string, def = { text: '0', units: 0n }): { text: string; units: bigint } => {
    const v = check(field, e[field], priceText, got(PRICE));
    return v == null ? def : { text: String(v), units: parsePrice(v) as bigint };
  };
  return { check, int, str, price };
}

function toSpec(
  name: string,
  e: Record<string, unknown>,
  at: string[],
  issues: RawIssue[],
): ModelSpec | null {
  const before = issues.length;
  const fail = (field: string, message: string) => issues.push({ path: [...at, field], message });
  const { check, int, str, price } = fieldReaders(e, fail);

  const kind = check('kind', e.kind, modelKind, got('must be "chat" or "embedding"'));
  const baseURL = str('baseURL', true);
  if (baseURL) check('baseURL', baseURL, httpUrl, got('must be an http(s) URL'));
  const apiKeyEnv = str('apiKeyEnv', false);
  // The value is never echoed: it may be the key itself, and this message reaches logs.
  if (apiKeyEnv)
    check(
      'apiKeyEnv',
      apiKeyEnv,
      apiKeyEnvName,
      `must be the NAME of an environment variable, e.g. OPENAI_API_KEY (got a value that is not one, not shown in case it is a key: ${apiKeyEnv.length} characters); never put the key itself here`,
    );
  const modelId = str('model', true);
  const pIn = price('pricePer1MInput');
  const pOut = price('pricePer1MOutput');
  const pCached = price('pricePer1MCachedInput', pIn);
  const spec: ModelSpec = {
    ...readProviderSettings(e, modelId ?? '', fail),
    name,
    kind: kind ?? 'chat',
    baseURL: (baseURL ?? '').replace(/\/+$/, ''),
    apiKeyEnv,
    modelId: modelId ?? '',
    contextWindow: int('contextWindow', 8192, 1),
    maxConcurrency: int('maxConcurrency', 8, 1),
    requestsPerMinute: int('requestsPerMinute', null, 1),
    tokensPerMinute: int('tokensPerMinute', null, 1),
    pricePer1MInput: pIn.text,
    pricePer1MOutput: pOut.text,
    priceInUnits: pIn.units,
    priceOutUnits: pOut.units,
    pricePer1MCachedInput: pCached.text,
    priceCachedInUnits: pCached.units,
    timeoutMs: int('timeoutMs', 120_000, 1),
    maxRetries: int('maxRetries', 4, 0),
    retryBaseMs: int('retryBaseMs', 500, 0),
    retryMaxMs: int('retryMaxMs', 30_000, 0),
    maxRetryAfterSeconds: int('maxRetryAfterSeconds', 60, 0),
    defaultMaxTokens: int('defaultMaxTokens', 4096, 1),
    batch: readBatchSettings(e.batch, fail),
  };
  if (spec.retryMaxMs < spec.retryBaseMs) fail('retryMaxMs', `must be >= retryBaseMs (${spec.retryBaseMs})`);
  return issues.length === before ? spec : null;
}
