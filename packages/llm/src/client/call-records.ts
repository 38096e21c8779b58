import { randomUUID } from 'node:crypto';
import { chatCostUnits, costUnits, formatCost } from '../cost.js';
import type { ModelSpec } from '../registry/model-spec.js';
import type { LlmCallRecord } from '../store/llm-store.js';
import type { parseChatBody } from './parse-response.js';
import type { ChatResult, LlmUsage } from './types.js';

// The ledger rows a call produces: one row per call, written 'sent' before the request goes out
// and settled (same id) once it is answered or has failed.

export const ZERO_COST = formatCost(0n);

export function baseRecord(
  spec: ModelSpec,
  kind: 'chat' | 'embedding',
  cacheKey: string,
  req: { runId?: string; taskId?: string },
  body: Record<string, unknown>,
  templateVersion: string | null,
): LlmCallRecord {
  return {
    runId: req.runId ?? null,
    taskId: req.taskId ?? null,
    model: spec.name,
    modelId: spec.modelId,
    kind,
    cacheKey,
    cacheHit: false,
    templateVersion,
    request: body,
    response: null,
    tokensIn: 0,
    tokensOut: 0,
    latencyMs: 0,
    costUsd: ZERO_COST,
    attempts: 0,
    error: null,
    calls: 1,
  };
}

// Cache hits cost nothing; their tokens are recorded so workload size stays visible, and what
// the call costs at the model's prices, so a leaderboard's cost does not depend on which task
// asked first.
export function hitRecord(
  spec: ModelSpec,
  base: LlmCallRecord,
  usage: LlmUsage,
  latencyMs: number,
  // The request and response already stand in the row that filled the cache (same cache key):
  // a hit records only which entry answered, so warm re-runs do not rewrite every prompt.
  request: { cachedAs: string | string[]; samples?: number[] },
): LlmCallRecord {
  return {
    ...base,
    request,
    cacheHit: true,
    status: 'cached',
    ...usageColumns(usage),
    latencyMs,
    listCostUsd: formatCost(chatCostUnits(usage, spec)),
  };
}

// The usage of several calls together (the samples one grouped cache-hit row stands for).
export function summedUsage(usages: LlmUsage[]): Required<LlmUsage> {
  const sum = (f: (u: LlmUsage) => number | undefined) => usages.reduce((n, u) => n + (f(u) ?? 0), 0);
  return {
    promptTokens: sum((u) => u.promptTokens),
    completionTokens: sum((u) => u.completionTokens),
    cachedTokens: sum((u) => u.cachedTokens),
    reasoningTokens: sum((u) => u.reasoningTokens),
  };
}

// The ledger's token columns of a call's usage.
export function usageColumns(usage: LlmUsage) {
  return {
    tokensIn: usage.promptTokens,
    tokensOut: usage.completionTokens,
    tokensCached: usage.cachedTokens ?? 0,
    tokensReasoning: usage.reasoningTokens ?? 0,
  };
}

// The row written before a request goes out: the estimated prompt tokens and the most the call
// can cost (prompt estimate x input price + output cap x output price). A row still 'sent' later
// (the worker died, the database was down at settle time) counts at this cost in every total.
export function sentRecord(
  base: LlmCallRecord,
  spec: ModelSpec,
  promptTokens: number,
  outputTokens: number,
): LlmCallRecord {
  const reserve = costUnits(promptTokens, outputTokens, spec.priceInUnits, spec.priceOutUnits);
  return {
    ...base,
    id: randomUUID(),
    status: 'sent',
    tokensIn: promptTokens,
    costUsd: formatCost(reserve),
  };
}

// Tokens of a chat prompt as estimated before sending: ~4 characters a token, plus the few
// tokens every message and the reply's priming add.
export function estimateChatPromptTokens(chars: number, messages: number): number {
  return Math.ceil(chars / 4) + 3 * messages + 3;
}

export function chatResult(
  parsed: ReturnType<typeof parseChatBody>,
  cacheKey: string,
  started: number,
  cached: boolean,
  costUsd: string,
  attempts: number,
  notes: string[],
): ChatResult {
  const result: ChatResult = {
    text: parsed.choices[0] ?? '',
    choices: parsed.choices,
    reasoning: parsed.reasoning,
    notes,
    finishReasons: parsed.finishReasons,
    usage: parsed.usage,
    cached,
    costUsd,
    latencyMs: Math.round(performance.now() - started),
    attempts,
    cacheKey,
  };
  if (parsed.logprobs) result.logprobs = parsed.logprobs;
  return result;
}

export function toPlain(raw: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
}
