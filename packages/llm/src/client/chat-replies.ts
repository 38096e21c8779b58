import { formatCost, parseCost } from '../cost.js';
import { LlmLengthError } from '../errors.js';
import type { ModelSpec } from '../registry/model-spec.js';
import type { ParsedChat } from './parse-response.js';
import type { ChatRequest, ChatResult } from './types.js';

// The error of a reply cut at its output budget, naming the budget and what used it.
// `next`: the budget of the re-ask about to be made; `reasked`: this was the re-ask.
export function lengthError(
  spec: ModelSpec,
  req: ChatRequest,
  parsed: ParsedChat,
  next: number | null,
  reasked: boolean,
): LlmLengthError {
  const { completionTokens, reasoningTokens = 0 } = parsed.usage;
  const param = spec.capabilities.tokenParam;
  const used =
    req.maxTokens !== undefined
      ? `used all ${req.maxTokens} ${param}`
      : `stopped at the endpoint's own limit after ${completionTokens} completion tokens (no ${param} was sent)`;
  const reasoning = reasoningTokens > 0 ? `, ${reasoningTokens} of them reasoning` : '';
  const retry =
    next !== null
      ? `; re-asking with ${next} ${param} (lengthRetryFactor ${spec.lengthRetryFactor})`
      : reasked
        ? ` (this was the re-ask with lengthRetryFactor ${spec.lengthRetryFactor})`
        : ', or set lengthRetryFactor in its registry entry to re-ask with a larger budget';
  return new LlmLengthError(
    `model "${spec.name}" did not finish its reply (finish_reason "length"): it ${used}${reasoning}; raise maxTokens for model ${spec.name} (the system's params.maxTokens)${retry}`,
    spec.name,
    req.maxTokens ?? null,
  );
}

// The budget of the re-ask after a reply was cut (null: the registry does not allow one).
export function largerBudget(spec: ModelSpec, req: ChatRequest, parsed: ParsedChat): number | null {
  if (!spec.lengthRetryFactor) return null;
  const budget = req.maxTokens ?? parsed.usage.completionTokens;
  return Math.ceil(budget * spec.lengthRetryFactor);
}

// Several calls' results as one n-choice result (a provider that ignores n, or answered fewer).
export function mergeResults(results: readonly ChatResult[], started: number): ChatResult {
  const first = results[0]!;
  const sum = (pick: (r: ChatResult) => number | undefined) =>
    results.reduce((s, r) => s + (pick(r) ?? 0), 0);
  return {
    ...first,
    choices: results.flatMap((r) => r.choices),
    reasoning: results.flatMap((r) => r.reasoning),
    finishReasons: results.flatMap((r) => r.finishReasons),
    notes: [...new Set(results.flatMap((r) => r.notes))],
    usage: {
      promptTokens: sum((r) => r.usage.promptTokens),
      completionTokens: sum((r) => r.usage.completionTokens),
      cachedTokens: sum((r) => r.usage.cachedTokens),
      reasoningTokens: sum((r) => r.usage.reasoningTokens),
    },
    cached: results.every((r) => r.cached),
    costUsd: formatCost(results.reduce((s, r) => s + parseCost(r.costUsd), 0n)),
    latencyMs: Math.round(performance.now() - started),
    attempts: sum((r) => r.attempts),
  };
}
