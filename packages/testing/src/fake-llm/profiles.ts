import {
  type FakeProviderError,
  firstRefusal,
  geminiRefusesLogprobs,
  onlyDefaultValue,
  onlyOneChoice,
  type RequestCheck,
  reasoningEffortIn,
  refuseLogprobs,
  refuseMaxTokens,
  refuseReasoningEffort,
} from './profile-checks.js';
import type { ChatShaping } from './profile-choice.js';
import {
  hiddenReasoningTokens,
  isGeminiThinkingModel,
  isOpenAiReasoningModel,
  isThinkingModel,
  NO_REASONING,
  type ReasoningPlan,
} from './profile-reasoning.js';
import type { UsageStyle } from './profile-usage.js';
import type { ChatPlan } from './responses.js';

// Providers whose OpenAI-compatible API the fake can imitate; 'generic' accepts everything.
export const FAKE_PROVIDER_PROFILES = [
  'generic',
  'openai',
  'azure-openai',
  'anthropic',
  'gemini',
  'vllm',
  'ollama',
  'openrouter',
] as const;
export type FakeProviderProfile = (typeof FAKE_PROVIDER_PROFILES)[number];

type Body = Record<string, unknown>;

export interface ProfileBehaviour {
  // Served at Azure's /openai/deployments/{name}/... routes with an api-key header.
  azure: boolean;
  // 'one': a single choice whatever `n` asks.
  n: 'honoured' | 'one';
  // 'ignored': accepted, choices carry `logprobs: null`.
  logprobs: 'honoured' | 'ignored';
  // Whether max_completion_tokens (else max_tokens) cuts the reply, reasoning included.
  budget: boolean;
  usage: UsageStyle;
  checks(model: string): readonly RequestCheck[];
  reasoning(model: string, body: Body): ReasoningPlan;
}

const OPENAI_REASONING_CHECKS = [
  refuseMaxTokens,
  onlyDefaultValue('temperature'),
  onlyDefaultValue('top_p'),
  refuseLogprobs,
  reasoningEffortIn(['minimal', 'low', 'medium', 'high']),
];
const GEMINI_CHECKS = [
  geminiRefusesLogprobs,
  reasoningEffortIn(['none', 'minimal', 'low', 'medium', 'high']),
];

const GENERIC: ProfileBehaviour = {
  azure: false,
  n: 'honoured',
  logprobs: 'honoured',
  budget: false,
  usage: 'plain',
  checks: () => [],
  reasoning: () => NO_REASONING,
};

const OPENAI: ProfileBehaviour = {
  ...GENERIC,
  budget: true,
  usage: 'openai',
  checks: (model) => (isOpenAiReasoningModel(model) ? OPENAI_REASONING_CHECKS : [refuseReasoningEffort]),
  reasoning: (model, body) =>
    isOpenAiReasoningModel(model)
      ? { mode: 'hidden', tokens: hiddenReasoningTokens(body.reasoning_effort) }
      : NO_REASONING,
};

const thinksInTags = (model: string, off: boolean): ReasoningPlan =>
  isThinkingModel(model) && !off ? { mode: 'think-tags' } : NO_REASONING;
const field = (body: Body, key: string): Body =>
  body[key] && typeof body[key] === 'object' ? (body[key] as Body) : {};

export const PROFILE_BEHAVIOURS: Record<FakeProviderProfile, ProfileBehaviour> = {
  // generic: every parameter honoured, no reasoning, replies never cut (the fake before profiles).
  generic: GENERIC,
  // openai: o1/o3/o4/gpt-5 reason hidden and refuse max_tokens, sampling != 1 and logprobs.
  openai: OPENAI,
  // azure-openai: OpenAI's behaviour at /openai/deployments/{name}/...?api-version=, api-key header.
  'azure-openai': { ...OPENAI, azure: true },
  // anthropic: Claude's OpenAI SDK compatibility: n must be 1; logprobs, seed ignored; temp capped at 1.
  anthropic: { ...GENERIC, budget: true, logprobs: 'ignored', checks: () => [onlyOneChoice] },
  // gemini: no logprobs; gemini-2.5/3 think hidden (reasoning_effort "none" turns it off).
  gemini: {
    ...GENERIC,
    budget: true,
    usage: 'gemini',
    checks: () => GEMINI_CHECKS,
    reasoning: (model, body) =>
      isGeminiThinkingModel(model)
        ? { mode: 'hidden', tokens: hiddenReasoningTokens(body.reasoning_effort) }
        : NO_REASONING,
  },
  // vllm: everything honoured; thinking models (no reasoning parser) write <think> into the content.
  vllm: {
    ...GENERIC,
    budget: true,
    usage: 'vllm',
    reasoning: (model, body) =>
      thinksInTags(model, field(body, 'chat_template_kwargs').enable_thinking === false),
  },
  // ollama: one choice whatever n asks, no logprobs; <think> unless reasoning_effort "none" or think false.
  ollama: {
    ...GENERIC,
    n: 'one',
    logprobs: 'ignored',
    budget: true,
    reasoning: (model, body) => thinksInTags(model, body.reasoning_effort === 'none' || body.think === false),
  },
  // openrouter: one choice, logprobs honoured, reasoning in message.reasoning, usage with cost.
  openrouter: {
    ...GENERIC,
    n: 'one',
    budget: true,
    usage: 'openrouter',
    reasoning: (model, body) => {
      const r = field(body, 'reasoning');
      if (!isThinkingModel(model) || r.enabled === false) return NO_REASONING;
      return { mode: 'field', returned: r.exclude !== true };
    },
  },
};

export function parseProfile(name: string): FakeProviderProfile {
  const found = FAKE_PROVIDER_PROFILES.find((p) => p === name);
  if (!found)
    throw new Error(`unknown profile "${name}": expected one of ${FAKE_PROVIDER_PROFILES.join(', ')}`);
  return found;
}

// The output budget a provider enforces: max_completion_tokens, else max_tokens (as vLLM reads them).
function budgetOf(body: Body): number | null {
  for (const key of ['max_completion_tokens', 'max_tokens']) {
    const v = body[key];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return v;
  }
  return null;
}

export type PreparedChat =
  | { refusal: FakeProviderError }
  | { refusal: null; plan: ChatPlan; shaping: ChatShaping };

// A parsed chat request as the profile's provider takes it: refused, or adjusted (n, logprobs)
// and shaped (reasoning, budget, usage). `cachedTokens` is the server's prompt cache.
export function prepareChat(
  profile: FakeProviderProfile,
  parsed: ChatPlan,
  cachedTokens: (promptTokens: number) => number,
): PreparedChat {
  const b = PROFILE_BEHAVIOURS[profile];
  const refusal = firstRefusal(b.checks(parsed.model), parsed.body);
  if (refusal) return { refusal };
  const ignoreLogprobs = b.logprobs === 'ignored';
  const plan: ChatPlan = {
    ...parsed,
    n: b.n === 'one' ? 1 : parsed.n,
    logprobs: ignoreLogprobs ? false : parsed.logprobs,
    topLogprobs: ignoreLogprobs ? 0 : parsed.topLogprobs,
  };
  const reportsCached = b.usage === 'openai' || b.usage === 'openrouter';
  const shaping: ChatShaping = {
    reasoning: b.reasoning(plan.model, plan.body),
    budget: b.budget ? budgetOf(plan.body) : null,
    usage: b.usage,
    cachedTokens: reportsCached ? cachedTokens : () => 0,
  };
  return { refusal: null, plan, shaping };
}
