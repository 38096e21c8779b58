import { LlmResponseError } from '../errors.js';
import type { LlmUsage, TokenLogprob } from './types.js';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export interface ParsedChat {
  choices: string[];
  reasoning: (string | null)[];
  finishReasons: (string | null)[];
  usage: LlmUsage;
  logprobs?: TokenLogprob[];
}

// Checks a chat completion body (fresh or from the cache); anything unusable is an LlmResponseError.
// It may hold fewer choices than asked (a provider that ignores n): the client asks for the rest.
export function parseChatBody(body: unknown, model: string): ParsedChat {
  if (!isObj(body)) {
    throw new LlmResponseError(
      `model "${model}" returned a non-JSON or empty body (${describe(body)})`,
      model,
    );
  }
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    throw new LlmResponseError(`model "${model}" returned no choices`, model);
  }
  const sorted = [...choices].sort((a, b) => Number(a?.index ?? 0) - Number(b?.index ?? 0));
  const finishReasons = sorted.map((c) => (typeof c?.finish_reason === 'string' ? c.finish_reason : null));
  const split = sorted.map((c, i) => {
    const message = isObj(c) && isObj(c.message) ? c.message : undefined;
    const content = message?.content;
    if (typeof content !== 'string' && content !== null) {
      throw new LlmResponseError(`model "${model}" returned choice ${i} without message.content`, model);
    }
    return splitReasoning(content ?? '', message ?? {}, finishReasons[i] === 'length', model);
  });
  const out: ParsedChat = {
    choices: split.map((c) => c.text),
    reasoning: split.map((c) => c.reasoning),
    finishReasons,
    usage: parseUsage(body.usage, model),
  };
  const lp = isObj(sorted[0]) && isObj(sorted[0].logprobs) ? sorted[0].logprobs.content : undefined;
  if (Array.isArray(lp)) {
    out.logprobs = lp.filter(isObj).map((t) => ({
      token: String(t.token ?? ''),
      logprob: Number(t.logprob),
      top: Array.isArray(t.top_logprobs)
        ? t.top_logprobs
            .filter(isObj)
            .map((a) => ({ token: String(a.token ?? ''), logprob: Number(a.logprob) }))
        : [],
    }));
  }
  return out;
}

const THINK_BLOCK = /^\s*<think>([\s\S]*?)<\/think>\s*/;

// The answer without its reasoning: a reasoning field (reasoning_content, or OpenRouter's and
// Ollama's reasoning), a leading <think> block, or text before a lone </think> (templates that
// open the block in the prompt). A block that never closes is all reasoning: an error unless the
// reply was cut at its budget (then the length check reports it).
export function splitReasoning(
  content: string,
  message: Record<string, unknown>,
  cut: boolean,
  model: string,
): { text: string; reasoning: string | null } {
  const fields = [message.reasoning_content, message.reasoning].filter(
    (f): f is string => typeof f === 'string' && f !== '',
  );
  const parts = [...fields];
  let text = content;
  const block = THINK_BLOCK.exec(text);
  const close = text.indexOf('</think>');
  if (block) {
    parts.push(block[1]!.trim());
    text = text.slice(block[0].length);
  } else if (/^\s*<think>/.test(text)) {
    if (!cut)
      throw new LlmResponseError(
        `model "${model}" replied with reasoning only: its <think> block never closed (${text.length} characters)`,
        model,
      );
    parts.push(text.replace(/^\s*<think>/, '').trim());
    text = '';
  } else if (close >= 0) {
    parts.push(text.slice(0, close).trim());
    text = text.slice(close + '</think>'.length).trimStart();
  }
  return { text, reasoning: parts.length ? parts.join('\n') : null };
}

export function parseEmbeddingBody(
  body: unknown,
  model: string,
  expected: number,
): { vectors: number[][]; usage: LlmUsage } {
  if (!isObj(body) || !Array.isArray(body.data)) {
    throw new LlmResponseError(
      `model "${model}" returned an embedding body without data (${describe(body)})`,
      model,
    );
  }
  const data = [...body.data].sort((a, b) => Number(a?.index ?? 0) - Number(b?.index ?? 0));
  if (data.length !== expected) {
    throw new LlmResponseError(
      `model "${model}" returned ${data.length} embeddings for ${expected} inputs`,
      model,
    );
  }
  const vectors = data.map((d, i) => {
    const e = isObj(d) ? d.embedding : undefined;
    if (!Array.isArray(e) || e.some((x) => typeof x !== 'number')) {
      throw new LlmResponseError(`model "${model}" returned a malformed embedding at index ${i}`, model);
    }
    return e as number[];
  });
  const usage = isObj(body.usage) ? Number(body.usage.prompt_tokens ?? 0) : 0;
  return { vectors, usage: { promptTokens: Number.isFinite(usage) ? usage : 0, completionTokens: 0 } };
}

function parseUsage(u: unknown, model: string): LlmUsage {
  // Ledger exactness depends on usage: a response without it is unusable, not "free".
  if (!isObj(u) || !Number.isInteger(u.prompt_tokens) || !Number.isInteger(u.completion_tokens)) {
    throw new LlmResponseError(
      `model "${model}" returned no usable usage (prompt_tokens, completion_tokens)`,
      model,
    );
  }
  const details = (v: unknown, key: string) =>
    isObj(v) && Number.isInteger(v[key]) ? (v[key] as number) : 0;
  return {
    promptTokens: u.prompt_tokens as number,
    completionTokens: u.completion_tokens as number,
    // OpenAI's details objects (also OpenRouter, vLLM, Azure); DeepSeek's prompt_cache_hit_tokens.
    cachedTokens: details(u.prompt_tokens_details, 'cached_tokens') || details(u, 'prompt_cache_hit_tokens'),
    reasoningTokens:
      details(u.completion_tokens_details, 'reasoning_tokens') || details(u, 'reasoning_tokens'),
  };
}

function describe(body: unknown): string {
  if (typeof body === 'string') return `text starting ${JSON.stringify(body.slice(0, 60))}`;
  return body === undefined || body === null ? 'empty' : typeof body;
}
