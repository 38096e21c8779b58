import { hashSeed } from './rng.js';
import { countTokens } from './tokens.js';
import type { FakeChatMessage } from './types.js';

// How a profile's model reasons before it answers, decided per request.
// hidden: counted in usage, never returned (OpenAI, Gemini); think-tags: a <think> block at the
// start of the content (vLLM, Ollama without a reasoning parser); field: message.reasoning.
export type ReasoningPlan =
  | { mode: 'none' }
  | { mode: 'hidden'; tokens: number }
  | { mode: 'think-tags' }
  | { mode: 'field'; returned: boolean };

// The reasoning of one reply: its text where the provider sends one, and its token count.
export interface Reasoning {
  mode: ReasoningPlan['mode'];
  text: string | null;
  tokens: number;
  returned: boolean;
}

export const NO_REASONING: ReasoningPlan = { mode: 'none' };

const EFFORTS = ['minimal', 'low', 'medium', 'high'];

export const isOpenAiReasoningModel = (model: string) => /^(ft:)?(o1|o3|o4|gpt-5)/.test(model);
export const isThinkingModel = (model: string) => /qwen3|deepseek-r1|think/i.test(model);
export const isGeminiThinkingModel = (model: string) => /^(models\/)?gemini-(2\.5|3)/.test(model);

// Hidden reasoning spends 16 tokens per effort step: minimal 16, low 32, medium (default) 48,
// high 64; "none" spends nothing.
export function hiddenReasoningTokens(effort: unknown): number {
  if (effort === 'none') return 0;
  const i = EFFORTS.indexOf(typeof effort === 'string' ? effort : 'medium');
  return 16 * (1 + (i < 0 ? 2 : i));
}

// Deterministic reasoning text, a function of the prompt only, so every run and every choice of
// the same request thinks the same thoughts.
export function reasoningText(messages: FakeChatMessage[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const words = lastUser.replace(/[<>]/g, ' ').split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  const note = hashSeed(messages.map((m) => `${m.role}: ${m.content}`).join('\n')).toString(16);
  return `The user wants a reply to "${words.slice(0, 80)}". I will read the ${messages.length} message(s), keep to what they ask, and answer in the requested form (plan ${note}).`;
}

export function resolveReasoning(plan: ReasoningPlan, messages: FakeChatMessage[]): Reasoning {
  if (plan.mode === 'none') return { mode: 'none', text: null, tokens: 0, returned: false };
  if (plan.mode === 'hidden') return { mode: 'hidden', text: null, tokens: plan.tokens, returned: false };
  const thought = reasoningText(messages);
  const text = plan.mode === 'think-tags' ? `<think>\n${thought}\n</think>\n\n` : thought;
  return {
    mode: plan.mode,
    text,
    tokens: countTokens(text),
    returned: plan.mode === 'think-tags' || plan.returned,
  };
}
