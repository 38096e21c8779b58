import { fakeEmbedding, toBase64Float32 } from './embeddings.js';
import { buildChoice, type ChatShaping, GENERIC_SHAPING } from './profile-choice.js';
import { resolveReasoning } from './profile-reasoning.js';
import { buildUsage } from './profile-usage.js';
import type { ReplyBook } from './replies.js';
import { countChatPromptTokens, countTokens } from './tokens.js';
import type { FakeChatMessage, FakeRule } from './types.js';

export class BadRequest extends Error {}

export interface ChatPlan {
  model: string;
  messages: FakeChatMessage[];
  lastUser: string;
  n: number;
  logprobs: boolean;
  topLogprobs: number;
  body: Record<string, unknown>;
}

// Validates the subset of the chat request the fake understands (errors become 400s).
export function parseChat(body: Record<string, unknown>): ChatPlan {
  const model = body.model;
  if (typeof model !== 'string' || !model) throw new BadRequest('model is required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new BadRequest('messages must be a non-empty array');
  }
  const messages = body.messages.map((m: unknown, i: number) => {
    const rec = m as Record<string, unknown>;
    if (!rec || typeof rec.role !== 'string') throw new BadRequest(`messages[${i}].role is required`);
    return { role: rec.role, content: contentText(rec.content) };
  });
  const n = body.n === undefined || body.n === null ? 1 : Number(body.n);
  if (!Number.isInteger(n) || n < 1 || n > 128) throw new BadRequest('n must be an integer in 1..128');
  const top = body.top_logprobs === undefined || body.top_logprobs === null ? 0 : Number(body.top_logprobs);
  if (!Number.isInteger(top) || top < 0 || top > 20) throw new BadRequest('top_logprobs must be in 0..20');
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  return { model, messages, lastUser, n, logprobs: body.logprobs === true, topLogprobs: top, body };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

// The answer to a chat request; `shaping` (a provider profile's) adds reasoning, cuts replies at
// the output budget and gives usage the provider's shape.
export function chatResponse(
  plan: ChatPlan,
  replies: ReplyBook,
  rule: FakeRule | undefined,
  seq: number,
  shaping: ChatShaping = GENERIC_SHAPING,
) {
  const reasoning = resolveReasoning(shaping.reasoning, plan.messages);
  const built = Array.from({ length: plan.n }, (_, choiceIndex) => {
    const reply = replies.next(
      {
        model: plan.model,
        messages: plan.messages,
        lastUser: plan.lastUser,
        choiceIndex,
        requestIndex: seq,
        body: plan.body,
      },
      rule,
    );
    return buildChoice(reply, choiceIndex, plan, reasoning, shaping.budget);
  });
  const prompt = countChatPromptTokens(plan.messages);
  const completion = built.reduce((s, c) => s + c.completionTokens, 0);
  const reasoningTokens = built.reduce((s, c) => s + c.reasoningTokens, 0);
  return {
    id: `chatcmpl-fake-${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
    choices: built.map((c) => c.choice),
    usage: buildUsage(shaping.usage, {
      prompt,
      completion,
      reasoning: reasoningTokens,
      cached: shaping.cachedTokens(prompt),
    }),
    system_fingerprint: 'fake-llm',
  };
}

export function embeddingResponse(body: Record<string, unknown>, defaultDim: number) {
  const model = body.model;
  if (typeof model !== 'string' || !model) throw new BadRequest('model is required');
  const raw = body.input;
  const inputs: unknown[] =
    Array.isArray(raw) && (raw.length === 0 || typeof raw[0] !== 'number') ? raw : [raw];
  if (inputs.length === 0) throw new BadRequest('input must not be empty');
  const texts = inputs.map((x, i) => {
    if (typeof x === 'string') return x;
    if (Array.isArray(x)) return x.join(' ');
    throw new BadRequest(`input[${i}] must be a string or an array of token ids`);
  });
  const dim = body.dimensions === undefined ? defaultDim : Number(body.dimensions);
  if (!Number.isInteger(dim) || dim < 1 || dim > 8192) throw new BadRequest('dimensions must be in 1..8192');
  const base64 = body.encoding_format === 'base64';
  const tokens = texts.reduce((s, t) => s + countTokens(t), 0);
  return {
    object: 'list',
    model,
    data: texts.map((t, index) => {
      const v = fakeEmbedding(t, dim);
      return { object: 'embedding', index, embedding: base64 ? toBase64Float32(v) : v };
    }),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
