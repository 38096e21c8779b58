// What each provider's OpenAI-compatible endpoint does with the request fields Precis may send.
// A registry entry's `provider` picks a preset; `capabilities:` overrides any field of it.

export const PROVIDERS = [
  'generic',
  'openai',
  'azure-openai',
  'anthropic',
  'gemini',
  'vllm',
  'ollama',
  'openrouter',
] as const;
export type Provider = (typeof PROVIDERS)[number];

// honoured: the field does what it says; ignored: accepted without effect; refused: HTTP 400.
export const SUPPORT_VALUES = ['honoured', 'ignored', 'refused'] as const;
export type Support = (typeof SUPPORT_VALUES)[number];

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ModelCapabilities {
  // The request field that carries the output budget.
  tokenParam: 'max_tokens' | 'max_completion_tokens';
  // Temperatures the model accepts; reasoning models take only their default (1).
  temperature: { min: number; max: number } | { fixed: number };
  topP: Support;
  n: Support;
  logprobs: Support;
  // The most top_logprobs alternatives per token it returns (when logprobs are honoured).
  maxTopLogprobs: number;
  seed: Support;
  // Where reasoning text arrives: a message field (reasoning_content / reasoning), <think> tags
  // at the start of the content, or nowhere (hidden, only counted in usage).
  reasoningText: 'field' | 'think-tags' | 'hidden';
  // Whether `reasoning_effort` is accepted.
  reasoningEffort: boolean;
  // The body fields that turn thinking off (`thinking: false`), or null where it cannot be.
  thinkingOff: Record<string, unknown> | null;
}

const FULL_RANGE = { min: 0, max: 2 };

const GENERIC: ModelCapabilities = {
  tokenParam: 'max_tokens',
  temperature: FULL_RANGE,
  topP: 'honoured',
  n: 'honoured',
  logprobs: 'honoured',
  maxTopLogprobs: 20,
  seed: 'honoured',
  reasoningText: 'think-tags',
  reasoningEffort: false,
  thinkingOff: null,
};

const OPENAI: ModelCapabilities = {
  ...GENERIC,
  tokenParam: 'max_completion_tokens',
  reasoningText: 'hidden',
};

// o1/o3/o4/gpt-5: only the default temperature and top_p, no logprobs, hidden reasoning.
const OPENAI_REASONING: ModelCapabilities = {
  ...OPENAI,
  temperature: { fixed: 1 },
  topP: 'refused',
  logprobs: 'refused',
  maxTopLogprobs: 0,
  reasoningEffort: true,
};

const PRESETS: Record<Provider, ModelCapabilities> = {
  generic: GENERIC,
  openai: OPENAI,
  'azure-openai': OPENAI,
  // Claude's OpenAI SDK compatibility layer: n must be 1, logprobs and seed are ignored.
  anthropic: {
    ...GENERIC,
    temperature: { min: 0, max: 1 },
    n: 'refused',
    logprobs: 'ignored',
    maxTopLogprobs: 0,
    seed: 'ignored',
    reasoningText: 'hidden',
  },
  // Gemini's OpenAI compatibility: no logprobs; thinking is off with reasoning_effort "none".
  gemini: {
    ...GENERIC,
    logprobs: 'refused',
    maxTopLogprobs: 0,
    reasoningText: 'hidden',
    reasoningEffort: true,
    thinkingOff: { reasoning_effort: 'none' },
  },
  // Without a reasoning parser, thinking models write <think> blocks into the content.
  vllm: { ...GENERIC, thinkingOff: { chat_template_kwargs: { enable_thinking: false } } },
  // Ollama answers one choice whatever n asks and returns no logprobs.
  ollama: {
    ...GENERIC,
    n: 'ignored',
    logprobs: 'ignored',
    maxTopLogprobs: 0,
    reasoningEffort: true,
    thinkingOff: { reasoning_effort: 'none' },
  },
  // OpenRouter answers one choice and returns reasoning in message.reasoning.
  openrouter: {
    ...GENERIC,
    n: 'ignored',
    reasoningText: 'field',
    reasoningEffort: true,
    thinkingOff: { reasoning: { enabled: false } },
  },
};

// OpenAI's reasoning models, by model id (a fine-tune "ft:o4-mini:..." keeps its base's prefix).
export function isOpenAiReasoningModel(modelId: string): boolean {
  return /^(ft:)?(o1|o3|o4|gpt-5)/.test(modelId);
}

// The preset of a provider for one model: OpenAI's reasoning models (by id, unless `reasoning`
// is false; or any model with `reasoning` set on openai/azure) get the reasoning preset.
export function presetCapabilities(
  provider: Provider,
  modelId: string,
  reasoning?: boolean,
): ModelCapabilities {
  const openAiFamily = provider === 'openai' || provider === 'azure-openai';
  if (openAiFamily && isReasoningModel(provider, modelId, reasoning)) return OPENAI_REASONING;
  return PRESETS[provider];
}

// Whether a model reasons before it answers: as the registry says, else (OpenAI) by its id.
export function isReasoningModel(provider: Provider, modelId: string, reasoning?: boolean): boolean {
  if (reasoning !== undefined) return reasoning;
  return (provider === 'openai' || provider === 'azure-openai') && isOpenAiReasoningModel(modelId);
}

// The temperature a request may send: itself, or null when the model takes only its fixed one.
export function acceptsTemperature(caps: ModelCapabilities, t: number): boolean {
  const range = caps.temperature;
  return 'fixed' in range ? t === range.fixed : t >= range.min && t <= range.max;
}

export function describeTemperature(caps: ModelCapabilities): string {
  const range = caps.temperature;
  return 'fixed' in range ? `only temperature ${range.fixed}` : `temperature ${range.min}..${range.max}`;
}
