import { NO_REASONING, type Reasoning, type ReasoningPlan } from './profile-reasoning.js';
import type { UsageStyle } from './profile-usage.js';
import { buildLogprobs } from './replies.js';
import { countTokens, tokenPrefix } from './tokens.js';
import type { FakeReplyObject } from './types.js';

// How a profile turns scripted replies into its answer: reasoning, output budget, usage shape.
export interface ChatShaping {
  reasoning: ReasoningPlan;
  // max_completion_tokens / max_tokens where the provider cuts replies at it (null: never cut).
  budget: number | null;
  usage: UsageStyle;
  cachedTokens(promptTokens: number): number;
}

// The fake before profiles: no reasoning, no cut, plain usage.
export const GENERIC_SHAPING: ChatShaping = {
  reasoning: NO_REASONING,
  budget: null,
  usage: 'plain',
  cachedTokens: () => 0,
};

export interface BuiltChoice {
  choice: {
    index: number;
    message: { role: string; content: string; refusal: null; reasoning?: string };
    logprobs: ReturnType<typeof buildLogprobs> | null;
    finish_reason: string;
  };
  completionTokens: number;
  reasoningTokens: number;
}

interface LogprobRequest {
  logprobs: boolean;
  topLogprobs: number;
}

// Reasoning is generated first and the reply after it, so a budget runs out in the reasoning
// before any of the reply is written; the cut reply ends with finish_reason "length".
export function buildChoice(
  reply: FakeReplyObject,
  index: number,
  req: LogprobRequest,
  reasoning: Reasoning,
  budget: number | null,
): BuiltChoice {
  const replyTokens = countTokens(reply.content);
  let thought = reasoning.text;
  let content = reply.content;
  let reasoningTokens = reasoning.tokens;
  let completionTokens = reasoningTokens + replyTokens;
  let finish: string = reply.finishReason ?? 'stop';
  if (budget !== null && completionTokens > budget) {
    reasoningTokens = Math.min(reasoningTokens, budget);
    thought = thought === null ? null : tokenPrefix(thought, reasoningTokens);
    content = tokenPrefix(reply.content, budget - reasoningTokens);
    completionTokens = budget;
    finish = 'length';
  }
  const inContent = reasoning.mode === 'think-tags' ? (thought ?? '') : '';
  const message: BuiltChoice['choice']['message'] = {
    role: 'assistant',
    content: inContent + content,
    refusal: null,
  };
  if (reasoning.mode === 'field' && reasoning.returned) message.reasoning = thought ?? '';
  const logprobs = req.logprobs ? visibleLogprobs(inContent, { ...reply, content }, req.topLogprobs) : null;
  return {
    choice: { index, message, logprobs, finish_reason: finish },
    completionTokens,
    reasoningTokens,
  };
}

// Logprobs of the visible content: synthetic ones for a <think> block, then the reply's own.
function visibleLogprobs(thinkBlock: string, reply: FakeReplyObject, topLogprobs: number) {
  const own = buildLogprobs(reply, topLogprobs);
  if (!thinkBlock) return own;
  return {
    ...own,
    content: [...buildLogprobs({ content: thinkBlock }, topLogprobs).content, ...own.content],
  };
}
