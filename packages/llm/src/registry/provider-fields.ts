import { z } from 'zod';
import { type Check, checker, type Fail, fieldMap, got, nonEmptyText, show } from './field-checks.js';
import {
  isReasoningModel,
  type ModelCapabilities,
  PROVIDERS,
  type Provider,
  presetCapabilities,
  REASONING_EFFORTS,
  type ReasoningEffort,
  SUPPORT_VALUES,
  type Support,
} from './providers.js';

// The registry fields that say how a model's provider behaves: provider, capabilities,
// reasoning, thinking, extraBody, Azure's deployment and apiVersion, lengthRetryFactor.
export const PROVIDER_FIELDS = [
  'provider',
  'capabilities',
  'reasoning',
  'thinking',
  'extraBody',
  'deployment',
  'apiVersion',
  'lengthRetryFactor',
] as const;

export interface ProviderSettings {
  provider: Provider;
  capabilities: ModelCapabilities;
  // A reasoning model: its output budget holds its reasoning too; effort sent as reasoning_effort.
  reasoning: { enabled: boolean; effort: ReasoningEffort | null };
  // false: the preset's thinkingOff fields are sent.
  thinking: boolean | null;
  // Sent verbatim with every request (and part of the cache key).
  extraBody: Record<string, unknown> | null;
  azure: { deployment: string; apiVersion: string } | null;
  // A reply cut at its budget is asked again with budget x this factor (null: never).
  lengthRetryFactor: number | null;
}

// The settings of an entry that names no provider (today's plain OpenAI-compatible endpoint).
export function genericProviderSettings(): ProviderSettings {
  return {
    provider: 'generic',
    capabilities: presetCapabilities('generic', ''),
    reasoning: { enabled: false, effort: null },
    thinking: null,
    extraBody: null,
    azure: null,
    lengthRetryFactor: null,
  };
}

// Body fields every call sets itself (the output budget goes through maxTokens, samples through n).
const RESERVED_BODY = ['model', 'messages', 'n', 'stream', 'max_tokens', 'max_completion_tokens'];

const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');
// Each field's schema (built once) and its message.
const providerName = z.enum(PROVIDERS).optional();
const PROVIDER = got(`must be one of ${oneOf(PROVIDERS)}`);
const reasoningShape = z.union([z.boolean(), z.strictObject({ effort: z.unknown() })]).optional();
const REASONING = got(`must be true, false or { effort: ${REASONING_EFFORTS.join(' | ')} }`);
const effortName = z.enum(REASONING_EFFORTS).optional();
const EFFORT = got(`must be one of ${oneOf(REASONING_EFFORTS)}`);
const onOff = z.boolean().nullish();
const requestFields = fieldMap.nullish();
const retryFactor = z.number().gt(1).max(16).nullish();
const FACTOR = got('must be a number > 1 and <= 16');
const reservedIn = (body: Record<string, unknown>) =>
  Object.keys(body).filter((k) => RESERVED_BODY.includes(k));

export function readProviderSettings(
  e: Record<string, unknown>,
  modelId: string,
  fail: Fail,
): ProviderSettings {
  const check = checker(fail);
  const provider = check('provider', e.provider, providerName, PROVIDER) ?? 'generic';
  const reasoning = readReasoning(e.reasoning, check);
  const flag = e.reasoning === undefined ? undefined : reasoning.enabled;
  const preset = presetCapabilities(provider, modelId, flag);
  const capabilities = readCapabilities(e.capabilities, preset, fail);
  const thinking = check('thinking', e.thinking, onOff, got('must be true or false')) ?? null;
  if (thinking === false && !capabilities.thinkingOff)
    fail(
      'thinking',
      `provider "${provider}" has no way to turn thinking off; send the fields through extraBody`,
    );
  if (reasoning.effort && !capabilities.reasoningEffort)
    fail(
      'reasoning.effort',
      `provider "${provider}" does not take reasoning_effort for this model; set capabilities.reasoningEffort: true if it does`,
    );
  const extraBody = check('extraBody', e.extraBody, requestFields, 'must be a map of request fields') ?? null;
  const owned = extraBody ? reservedIn(extraBody) : [];
  if (owned.length)
    fail(
      'extraBody',
      `must not set ${owned.map((k) => `"${k}"`).join(', ')}: Precis sets them for every call`,
    );
  return {
    provider,
    capabilities,
    reasoning: { ...reasoning, enabled: isReasoningModel(provider, modelId, flag) },
    thinking,
    extraBody,
    azure: readAzure(e, provider, fail),
    lengthRetryFactor: check('lengthRetryFactor', e.lengthRetryFactor, retryFactor, FACTOR) ?? null,
  };
}

function readReasoning(v: unknown, check: Check): ProviderSettings['reasoning'] {
  const shape = check('reasoning', v, reasoningShape, REASONING);
  if (shape === undefined || shape === false) return { enabled: false, effort: null };
  if (shape === true) return { enabled: true, effort: null };
  return { enabled: true, effort: check('reasoning.effort', shape.effort, effortName, EFFORT) ?? null };
}

function readAzure(e: Record<string, unknown>, provider: Provider, fail: Fail): ProviderSettings['azure'] {
  const given = e.deployment !== undefined || e.apiVersion !== undefined;
  if (provider !== 'azure-openai') {
    if (given)
      fail(e.deployment !== undefined ? 'deployment' : 'apiVersion', 'is only for provider "azure-openai"');
    return null;
  }
  const check = checker(fail);
  const text = (field: 'deployment' | 'apiVersion', example: string) =>
    check(
      field,
      e[field],
      nonEmptyText,
      (v) => `is required with provider "azure-openai" (e.g. ${example}; got ${show(v)})`,
    ) ?? '';
  return { deployment: text('deployment', '"gpt-4o-mini"'), apiVersion: text('apiVersion', '"2024-10-21"') };
}

type Rule<T> = { schema: z.ZodType<T>; message: string };
const support: Rule<Support> = {
  schema: z.enum(SUPPORT_VALUES),
  message: `must be one of ${oneOf(SUPPORT_VALUES)}`,
};
const unit = z.number().min(0).max(2);

// What each `capabilities:` field may be set to (the keys, in this order, are the known ones).
const CAPABILITY_RULES: { [K in keyof ModelCapabilities]: Rule<ModelCapabilities[K]> } = {
  tokenParam: {
    schema: z.enum(['max_tokens', 'max_completion_tokens']),
    message: 'must be "max_tokens" or "max_completion_tokens"',
  },
  temperature: {
    schema: z.union([
      z.strictObject({ fixed: unit }),
      z.strictObject({ min: unit, max: unit }).refine((t) => t.min <= t.max),
    ]),
    message: 'must be { min, max } (0..2) or { fixed }',
  },
  topP: support,
  n: support,
  logprobs: support,
  seed: support,
  maxTopLogprobs: { schema: z.int().min(0).max(20), message: 'must be an integer in 0..20' },
  reasoningText: {
    schema: z.enum(['field', 'think-tags', 'hidden']),
    message: 'must be "field", "think-tags" or "hidden"',
  },
  reasoningEffort: { schema: z.boolean(), message: 'must be true or false' },
  thinkingOff: { schema: fieldMap.nullable(), message: 'must be a map of request fields, or null' },
};
const CAPABILITY_KEYS = Object.keys(CAPABILITY_RULES).join(', ');

// `capabilities:` over the preset; each field checked, a wrong one reported and the preset's kept.
function readCapabilities(v: unknown, preset: ModelCapabilities, fail: Fail): ModelCapabilities {
  if (v === undefined) return preset;
  const check = checker(fail);
  const given = check('capabilities', v, fieldMap, `must be a map of capability fields (${CAPABILITY_KEYS})`);
  const out: Record<string, unknown> = { ...preset };
  for (const [k, value] of Object.entries(given ?? {})) {
    const rule = Object.hasOwn(CAPABILITY_RULES, k)
      ? (CAPABILITY_RULES[k as keyof ModelCapabilities] as Rule<unknown>)
      : undefined;
    if (!rule) fail(`capabilities.${k}`, `unknown capability (known: ${CAPABILITY_KEYS})`);
    else {
      const read = check(`capabilities.${k}`, value, rule.schema, got(rule.message));
      if (read !== undefined) out[k] = read;
    }
  }
  return out as unknown as ModelCapabilities;
}
