import { stringify } from 'yaml';
import type { ModelSpec } from '../registry/model-spec.js';
import {
  acceptsTemperature,
  isReasoningModel,
  type ModelCapabilities,
  PROVIDERS,
  type Provider,
  presetCapabilities,
} from '../registry/providers.js';
import type { ChatObservations, RegistrySuggestion } from './probe-types.js';

// In the order a registry entry lists them.
const CAPABILITY_KEYS: (keyof ModelCapabilities)[] = [
  'tokenParam',
  'temperature',
  'topP',
  'n',
  'logprobs',
  'maxTopLogprobs',
  'seed',
  'reasoningText',
  'reasoningEffort',
  'thinkingOff',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// The capabilities that differ from a preset, as `capabilities:` would list them.
function differences(caps: ModelCapabilities, preset: ModelCapabilities): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CAPABILITY_KEYS) if (!same(caps[k], preset[k])) out[k] = caps[k];
  return out;
}

// `base` changed only where an observation contradicts it; what a probe cannot tell keeps its value.
export function fitCapabilities(base: ModelCapabilities, o: ChatObservations): ModelCapabilities {
  const caps: ModelCapabilities = { ...base };
  if (o.tokenParam !== 'both') caps.tokenParam = o.tokenParam;
  const zeroOk = acceptsTemperature(base, 0);
  const t = base.temperature;
  // A model that takes 0 spans 0..its max (2 when only one value was declared); one refusing 0
  // is, in practice, a reasoning model that takes only its default 1.
  if (o.temperatureZero === 'accepted' && !zeroOk)
    caps.temperature = { min: 0, max: 'fixed' in t ? 2 : t.max };
  if (o.temperatureZero === 'refused' && zeroOk) caps.temperature = { fixed: 1 };
  caps.n = o.n;
  caps.logprobs = o.logprobs;
  if (o.logprobs === 'honoured' && caps.maxTopLogprobs < o.topLogprobs) caps.maxTopLogprobs = o.topLogprobs;
  // Accepted but not declared: not sent is the safe reading (a seed may well be ignored).
  if (o.seed === 'refused') caps.seed = 'refused';
  else if (caps.seed === 'refused') caps.seed = 'ignored';
  if (o.reasoningText !== 'none seen') caps.reasoningText = o.reasoningText;
  return caps;
}

interface Candidate {
  provider: Provider;
  // The `reasoning:` line it needs (null: none).
  line: boolean | null;
  capabilities: Record<string, unknown>;
  cost: number;
}

// The entry's provider, or another whose preset needs fewer lines; its `capabilities:` over that
// preset keep the entry's own overrides and fix what the probes contradicted.
export function suggestRegistryLines(spec: ModelSpec, o: ChatObservations): RegistrySuggestion {
  const declaredPreset = presetCapabilities(spec.provider, spec.modelId, spec.reasoning.enabled);
  const own = differences(spec.capabilities, declaredPreset) as Partial<ModelCapabilities>;
  const azure = spec.provider === 'azure-openai';
  // Azure stays Azure (its deployment and apiVersion) and nothing else becomes it.
  const providers = azure ? (['azure-openai'] as const) : PROVIDERS.filter((p) => p !== 'azure-openai');
  // Every probe carried the entry's reasoning_effort and thinking-off fields, and was answered.
  const sent: Partial<ModelCapabilities> = {};
  if (spec.reasoning.effort) sent.reasoningEffort = true;
  if (spec.thinking === false) sent.thinkingOff = spec.capabilities.thinkingOff;
  const candidates: Candidate[] = [];
  for (const provider of providers) {
    // Only OpenAI's presets depend on whether the model reasons.
    const openAi = provider === 'openai' || provider === 'azure-openai';
    const flags = openAi ? [spec.reasoning.enabled, !spec.reasoning.enabled] : [spec.reasoning.enabled];
    for (const reasoning of flags) {
      const preset = presetCapabilities(provider, spec.modelId, reasoning);
      const capabilities = differences(fitCapabilities({ ...preset, ...own, ...sent }, o), preset);
      const line = !openAi || reasoning === pastedReasoning(spec, provider) ? null : reasoning;
      const changes = Number(provider !== spec.provider) + Number(line !== null);
      candidates.push({ provider, line, capabilities, cost: changes + Object.keys(capabilities).length });
    }
  }
  // The declared provider comes first, so it wins a tie.
  candidates.sort(
    (a, b) => a.cost - b.cost || Number(b.provider === spec.provider) - Number(a.provider === spec.provider),
  );
  const best = candidates[0]!;
  const lines: Record<string, unknown> = { provider: best.provider };
  if (best.line !== null) lines.reasoning = best.line;
  if (Object.keys(best.capabilities).length) lines.capabilities = best.capabilities;
  return {
    provider: best.provider,
    ...(best.line !== null ? { reasoning: best.line } : {}),
    capabilities: best.capabilities,
    yaml: stringify(lines),
  };
}

// Whether the entry, its provider line replaced, would be a reasoning model: as its own
// `reasoning:` says where it has one (a value OpenAI's id rule would not give), else by id.
function pastedReasoning(spec: ModelSpec, provider: Provider): boolean {
  const explicit =
    spec.reasoning.effort !== null ||
    spec.reasoning.enabled !== isReasoningModel(spec.provider, spec.modelId);
  return explicit ? spec.reasoning.enabled : isReasoningModel(provider, spec.modelId);
}
