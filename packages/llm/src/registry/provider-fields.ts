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

type Fail = (field: string, message: string) => void;

// Body fields every call sets itself (the output budget goes through maxTokens, samples through n).
const RESERVED_BODY = ['model', 'messages', 'n', 'stream', 'max_tokens', 'max_completion_tokens'];

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));
const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

export function readProviderSettings(
  e: Record<string, unknown>,
  modelId: string,
  fail: Fail,
): ProviderSettings {
  const provider = readProvider(e.provider, fail);
  const reasoning = readReasoning(e.reasoning, fail);
  const flag = e.reasoning === undefined ? undefined : reasoning.enabled;
  const preset = presetCapabilities(provider, modelId, flag);
  const capabilities = readCapabilities(e.capabilities, preset, fail);
  const thinking = e.thinking === undefined ? null : e.thinking;
  if (thinking !== null && typeof thinking !== 'boolean')
    fail('thinking', `must be true or false (got ${show(thinking)})`);
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
  const extraBody = e.extraBody === undefined ? null : e.extraBody;
  if (extraBody !== null && !isObject(extraBody)) fail('extraBody', 'must be a map of request fields');
  const owned = isObject(extraBody) ? Object.keys(extraBody).filter((k) => RESERVED_BODY.includes(k)) : [];
  if (owned.length)
    fail(
      'extraBody',
      `must not set ${owned.map((k) => `"${k}"`).join(', ')}: Precis sets them for every call`,
    );
  return {
    provider,
    capabilities,
    reasoning: { ...reasoning, enabled: isReasoningModel(provider, modelId, flag) },
    thinking: typeof thinking === 'boolean' ? thinking : null,
    extraBody: isObject(extraBody) ? extraBody : null,
    azure: readAzure(e, provider, fail),
    lengthRetryFactor: readFactor(e.lengthRetryFactor, fail),
  };
}

function readProvider(v: unknown, fail: Fail): Provider {
  if (v === undefined) return 'generic';
  if (typeof v === 'string' && (PROVIDERS as readonly string[]).includes(v)) return v as Provider;
  fail('provider', `must be one of ${oneOf(PROVIDERS)} (got ${show(v)})`);
  return 'generic';
}

function readReasoning(v: unknown, fail: Fail): ProviderSettings['reasoning'] {
  if (v === undefined || v === false) return { enabled: false, effort: null };
  if (v === true) return { enabled: true, effort: null };
  if (isObject(v) && Object.keys(v).every((k) => k === 'effort')) {
    if (v.effort === undefined) return { enabled: true, effort: null };
    if ((REASONING_EFFORTS as readonly unknown[]).includes(v.effort))
      return { enabled: true, effort: v.effort as ReasoningEffort };
    fail('reasoning.effort', `must be one of ${oneOf(REASONING_EFFORTS)} (got ${show(v.effort)})`);
    return { enabled: true, effort: null };
  }
  fail('reasoning', `must be true, false or { effort: ${REASONING_EFFORTS.join(' | ')} } (got ${show(v)})`);
  return { enabled: false, effort: null };
}

function readAzure(e: Record<string, unknown>, provider: Provider, fail: Fail): ProviderSettings['azure'] {
  const given = e.deployment !== undefined || e.apiVersion !== undefined;
  if (provider !== 'azure-openai') {
    if (given)
      fail(e.deployment !== undefined ? 'deployment' : 'apiVersion', 'is only for provider "azure-openai"');
    return null;
  }
  const text = (field: 'deployment' | 'apiVersion', example: string) => {
    const v = e[field];
    if (typeof v === 'string' && v.trim() !== '') return v;
    fail(field, `is required with provider "azure-openai" (e.g. ${example}; got ${show(v)})`);
    return '';
  };
  return { deployment: text('deployment', '"gpt-4o-mini"'), apiVersion: text('apiVersion', '"2024-10-21"') };
}

function readFactor(v: unknown, fail: Fail): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isFinite(v) && v > 1 && v <= 16) return v;
  fail('lengthRetryFactor', `must be a number > 1 and <= 16 (got ${show(v)})`);
  return null;
}

const SUPPORT_KEYS = ['topP', 'n', 'logprobs', 'seed'] as const;
const CAPABILITY_KEYS = [
  'tokenParam',
  'temperature',
  ...SUPPORT_KEYS,
  'maxTopLogprobs',
  'reasoningText',
  'reasoningEffort',
  'thinkingOff',
];

// `capabilities:` over the preset; each field checked, a wrong one reported and the preset's kept.
function readCapabilities(v: unknown, preset: ModelCapabilities, fail: Fail): ModelCapabilities {
  if (v === undefined) return preset;
  if (!isObject(v)) {
    fail('capabilities', `must be a map of capability fields (${CAPABILITY_KEYS.join(', ')})`);
    return preset;
  }
  const out: ModelCapabilities = { ...preset };
  const at = (k: string) => `capabilities.${k}`;
  for (const [k, value] of Object.entries(v)) {
    if (!CAPABILITY_KEYS.includes(k))
      fail(at(k), `unknown capability (known: ${CAPABILITY_KEYS.join(', ')})`);
    else if ((SUPPORT_KEYS as readonly string[]).includes(k)) {
      if ((SUPPORT_VALUES as readonly unknown[]).includes(value))
        out[k as (typeof SUPPORT_KEYS)[number]] = value as Support;
      else fail(at(k), `must be one of ${oneOf(SUPPORT_VALUES)} (got ${show(value)})`);
    } else readOtherCapability(out, k, value, (m) => fail(at(k), m));
  }
  return out;
}

function readOtherCapability(out: ModelCapabilities, k: string, v: unknown, fail: (m: string) => void) {
  if (k === 'tokenParam') {
    if (v === 'max_tokens' || v === 'max_completion_tokens') out.tokenParam = v;
    else fail(`must be "max_tokens" or "max_completion_tokens" (got ${show(v)})`);
  } else if (k === 'temperature') {
    const t = readTemperature(v);
    if (t) out.temperature = t;
    else fail(`must be { min, max } (0..2) or { fixed } (got ${show(v)})`);
  } else if (k === 'maxTopLogprobs') {
    if (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 20) out.maxTopLogprobs = v as number;
    else fail(`must be an integer in 0..20 (got ${show(v)})`);
  } else if (k === 'reasoningText') {
    if (v === 'field' || v === 'think-tags' || v === 'hidden') out.reasoningText = v;
    else fail(`must be "field", "think-tags" or "hidden" (got ${show(v)})`);
  } else if (k === 'reasoningEffort') {
    if (typeof v === 'boolean') out.reasoningEffort = v;
    else fail(`must be true or false (got ${show(v)})`);
  } else if (v === null || isObject(v)) out.thinkingOff = v as Record<string, unknown> | null;
  else fail(`must be a map of request fields, or null (got ${show(v)})`);
}

function readTemperature(v: unknown): ModelCapabilities['temperature'] | null {
  if (!isObject(v)) return null;
  const inRange = (x: unknown) => typeof x === 'number' && x >= 0 && x <= 2;
  if (Object.keys(v).length === 1 && inRange(v.fixed)) return { fixed: v.fixed as number };
  if (
    Object.keys(v).length === 2 &&
    inRange(v.min) &&
    inRange(v.max) &&
    (v.min as number) <= (v.max as number)
  )
    return { min: v.min as number, max: v.max as number };
  return null;
}
