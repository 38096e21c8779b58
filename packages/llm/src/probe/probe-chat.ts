import type { ModelSpec } from '../registry/model-spec.js';
import type { Support } from '../registry/providers.js';
import type { ProbeOutcome, ProbeSender } from './probe-sender.js';
import type { ChatObservations } from './probe-types.js';

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

// Room for a reasoning model to think a little and still answer (the thinking and logprobs
// probes); the other probes only need to be accepted.
const TOKEN_PROBE_BUDGET = 64;
const FIELD_PROBE_BUDGET = 16;

// What every probe carries besides its own field: the entry's reasoning effort, its
// thinking-off fields and extraBody, as the client would send them.
function entryFields(spec: ModelSpec): Body {
  const fields: Body = {};
  if (spec.reasoning.effort) fields.reasoning_effort = spec.reasoning.effort;
  if (spec.thinking === false && spec.capabilities.thinkingOff)
    Object.assign(fields, spec.capabilities.thinkingOff);
  return { ...fields, ...(spec.extraBody ?? {}) };
}

export type ChatProbeResult = { unusable: string } | { observations: ChatObservations };

// A chat model's probes: the two budget parameters first, then (under the one it took)
// temperature 0, n = 2, logprobs and seed; the thinking marker is read from every reply.
export async function probeChat(spec: ModelSpec, sender: ProbeSender): Promise<ChatProbeResult> {
  const base = { model: spec.modelId, messages: [{ role: 'user', content: 'Hi' }], ...entryFields(spec) };
  const [maxTokens, maxCompletion] = await Promise.all([
    sender.chat({ ...base, max_tokens: TOKEN_PROBE_BUDGET }),
    sender.chat({ ...base, max_completion_tokens: TOKEN_PROBE_BUDGET }),
  ]);
  const unusable = firstUnusable([maxTokens, maxCompletion]);
  if (unusable) return { unusable };
  if (maxTokens.kind !== 'ok' && maxCompletion.kind !== 'ok')
    return {
      unusable: `refused both budget parameters: max_tokens (${message(maxTokens)}); max_completion_tokens (${message(maxCompletion)})`,
    };
  const tokenParam =
    maxTokens.kind === 'ok' && maxCompletion.kind === 'ok'
      ? 'both'
      : maxTokens.kind === 'ok'
        ? 'max_tokens'
        : 'max_completion_tokens';
  const param = tokenParam === 'both' ? spec.capabilities.tokenParam : tokenParam;
  const small = { ...base, [param]: FIELD_PROBE_BUDGET };
  const [temperature, n, logprobs, seed] = await Promise.all([
    sender.chat({ ...small, temperature: 0 }),
    sender.chat({ ...small, n: 2 }),
    sender.chat({ ...small, [param]: TOKEN_PROBE_BUDGET, logprobs: true, top_logprobs: 2 }),
    sender.chat({ ...small, seed: 7 }),
  ]);
  const late = firstUnusable([temperature, n, logprobs, seed]);
  if (late) return { unusable: late };
  const refusals: Record<string, string> = {};
  const refusedAs = (key: string, o: ProbeOutcome) => {
    if (o.kind === 'refused') refusals[key] = o.message;
    return o.kind === 'refused';
  };
  if (tokenParam !== 'both') refusedAs('tokenParam', tokenParam === 'max_tokens' ? maxCompletion : maxTokens);
  const replies = [maxTokens, maxCompletion, temperature, n, logprobs, seed].flatMap((o) =>
    o.kind === 'ok' ? [o.body] : [],
  );
  return {
    observations: {
      tokenParam,
      temperatureZero: refusedAs('temperature', temperature) ? 'refused' : 'accepted',
      n: refusedAs('n', n) ? 'refused' : choiceCount(n) >= 2 ? 'honoured' : 'ignored',
      ...readLogprobs(refusedAs('logprobs', logprobs), logprobs),
      seed: refusedAs('seed', seed) ? 'refused' : 'accepted',
      reasoningText: thinkingMarker(replies),
      refusals,
    },
  };
}

function firstUnusable(outcomes: ProbeOutcome[]): string | null {
  const found = outcomes.find((o) => o.kind === 'unusable');
  return found ? found.message : null;
}

const message = (o: ProbeOutcome) => (o.kind === 'ok' ? 'accepted' : o.message);

function choices(o: ProbeOutcome): Body[] {
  return o.kind === 'ok' && Array.isArray(o.body.choices) ? o.body.choices.filter(isObj) : [];
}

const choiceCount = (o: ProbeOutcome) => choices(o).length;

// Returned: the first choice has a logprobs list (empty when reasoning took the whole budget);
// absent or null: accepted without them.
function readLogprobs(refused: boolean, o: ProbeOutcome): { logprobs: Support; topLogprobs: number } {
  if (refused) return { logprobs: 'refused', topLogprobs: 0 };
  const lp = choices(o)[0]?.logprobs;
  if (!isObj(lp) || !Array.isArray(lp.content)) return { logprobs: 'ignored', topLogprobs: 0 };
  const top = lp.content.filter(isObj)[0]?.top_logprobs;
  return { logprobs: 'honoured', topLogprobs: Array.isArray(top) ? top.length : 0 };
}

// A reasoning field, else <think> in the content, else reasoning tokens counted with no text.
export function thinkingMarker(replies: Body[]): ChatObservations['reasoningText'] {
  const messages = replies.flatMap((r) =>
    Array.isArray(r.choices) ? r.choices.filter(isObj).map((c) => (isObj(c.message) ? c.message : {})) : [],
  );
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (messages.some((m) => text(m.reasoning_content) || text(m.reasoning))) return 'field';
  if (messages.some((m) => typeof m.content === 'string' && m.content.includes('<think>')))
    return 'think-tags';
  const reasoningTokens = (u: unknown) => {
    if (!isObj(u)) return 0;
    const details = isObj(u.completion_tokens_details) ? u.completion_tokens_details.reasoning_tokens : 0;
    return Number(details || u.reasoning_tokens || 0);
  };
  return replies.some((r) => reasoningTokens(r.usage) > 0) ? 'hidden' : 'none seen';
}
