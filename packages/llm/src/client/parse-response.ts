import { LlmResponseError } from '../errors.js';
import type { LlmUsage, TokenLogprob } from './types.js';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export interface ParsedChat {
  choices: string[];
  finishReasons: (string | null)[];
  usage: LlmUsage;
  logprobs?: TokenLogprob[];
}

// Checks a chat completion body (fresh or from the cache); anything unusable is an LlmResponseError.
export function parseChatBody(body: unknown, model: string, expectedChoices: number): ParsedChat {
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
  const texts = sorted.map((c, i) => {
    const content = isObj(c) && isObj(c.message) ? c.message.content : undefined;
    if (typeof content !== 'string' && content !== null) {
      throw new LlmResponseError(`model "${model}" returned choice ${i} without message.content`, model);
    }
    return content ?? '';
  });
  if (texts.length < expectedChoices) {
    throw new LlmResponseError(
      `model "${model}" returned ${texts.length} choices, ${expectedChoices} requested`,
      model,
    );
  }
  const out: ParsedChat = {
    choices: texts,
    finishReasons: sorted.map((c) => (typeof c?.finish_reason === 'string' ? c.finish_reason : null)),
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
  return { promptTokens: u.prompt_tokens as number, completionTokens: u.completion_tokens as number };
}

function describe(body: unknown): string {
  if (typeof body === 'string') return `text starting ${JSON.stringify(body.slice(0, 60))}`;
  return body === undefined || body === null ? 'empty' : typeof body;
}
