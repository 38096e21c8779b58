import { createHash } from 'node:crypto';
import { countTokens } from './tokens.js';
import type { FakeChatMessage } from './types.js';

// The shape of `usage` each provider returns: plain (generic, Anthropic, Ollama), OpenAI's with
// both details objects, Gemini's reasoning count, vLLM's null prompt details, OpenRouter's cost.
export type UsageStyle = 'plain' | 'openai' | 'gemini' | 'vllm' | 'openrouter';

export interface UsageCounts {
  prompt: number;
  completion: number;
  reasoning: number;
  cached: number;
}

// OpenRouter's cost at $1 per 1M uncached input, $0.25 per 1M cached input, $4 per 1M output.
export function openRouterCost(u: UsageCounts): number {
  const dollars = ((u.prompt - u.cached) * 1 + u.cached * 0.25 + u.completion * 4) / 1_000_000;
  return Math.round(dollars * 1e12) / 1e12;
}

export function buildUsage(style: UsageStyle, u: UsageCounts) {
  const plain = {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
  };
  if (style === 'plain') return plain;
  if (style === 'vllm') return { ...plain, prompt_tokens_details: null };
  if (style === 'gemini') return { ...plain, completion_tokens_details: { reasoning_tokens: u.reasoning } };
  if (style === 'openrouter') {
    return {
      ...plain,
      cost: openRouterCost(u),
      prompt_tokens_details: { cached_tokens: u.cached },
      completion_tokens_details: { reasoning_tokens: u.reasoning },
    };
  }
  return {
    ...plain,
    prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

// OpenAI-style prompt caching, made deterministic: a request whose first message (same text, same
// model) was in an earlier answered request, with a prompt of >= 1024 tokens, reads that message's
// tokens from the cache in whole 128-token blocks.
export class PromptCacheBook {
  private readonly seen = new Set<string>();

  private key(model: string, messages: FakeChatMessage[]): string | null {
    const first = messages[0];
    if (!first) return null;
    return createHash('sha1').update(`${model}\0${first.content}`).digest('base64');
  }

  cachedTokens(model: string, messages: FakeChatMessage[], promptTokens: number): number {
    const key = this.key(model, messages);
    if (promptTokens < 1024 || key === null || !this.seen.has(key)) return 0;
    return Math.min(promptTokens, Math.floor(countTokens(messages[0]!.content) / 128) * 128);
  }

  remember(model: string, messages: FakeChatMessage[]): void {
    const key = this.key(model, messages);
    if (key === null) return;
    // Bounded like the other books of the fake; forgetting only makes later hits misses.
    if (this.seen.size >= 100_000) this.seen.clear();
    this.seen.add(key);
  }
}
