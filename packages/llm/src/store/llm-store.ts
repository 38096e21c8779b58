// Persistence the client needs: the content-addressed response cache and the call ledger.

// sent: the request went out and no answer is recorded yet (or ever: the worker died); the row
// then counts at its reserved cost. ok / error: answered or failed. cached: a cache hit.
export type LlmCallStatus = 'sent' | 'ok' | 'error' | 'cached';

export interface LlmCallRecord {
  // Set for a call that went out: its 'sent' row has this id, and the record that settles the
  // call updates that row instead of adding one.
  id?: string;
  // Derived from cacheHit / error when absent.
  status?: LlmCallStatus;
  runId: string | null;
  taskId: string | null;
  // Registry name and provider model id.
  model: string;
  modelId: string;
  kind: 'chat' | 'embedding' | 'plugin';
  cacheKey: string;
  cacheHit: boolean;
  // Parked for a provider batch (issue 39) and answered by it, at the batch price (default false).
  batched?: boolean;
  templateVersion: string | null;
  request: Record<string, unknown>;
  // Provider response body for successful uncached calls (this is what the cache serves).
  response: Record<string, unknown> | null;
  tokensIn: number;
  // Completion tokens, reasoning included.
  tokensOut: number;
  // Prompt tokens from the provider's prompt cache; reasoning tokens of the completion (default 0).
  tokensCached?: number;
  tokensReasoning?: number;
  // How the request was shaped to its model (ShapedParams.notes).
  notes?: string[];
  latencyMs: number;
  // Exact decimal string with 10 fractional digits.
  costUsd: string;
  // What the call costs at its model's prices, also when the cache answered it (default costUsd).
  listCostUsd?: string;
  attempts: number;
  error: string | null;
  // Calls this record accounts for: 1, or the n cache hits of one n-sample request recorded
  // together (their keys in request.cachedAs). Ledger counts sum it.
  calls: number;
}

export interface CachedAnswer {
  body: Record<string, unknown>;
  // The task whose batched call this answer is (its own re-run reads it as that call), or null.
  batchTaskId: string | null;
}

export interface LlmLedgerTotals {
  // Model calls and cache hits (a grouped cache-hit record counts each call it stands for).
  calls: number;
  cacheHits: number;
  errors: number;
  // Calls sent and never settled (counted in calls, their reserved cost in costUsd).
  sent: number;
  tokensIn: number;
  tokensOut: number;
  // Exact decimal string (sum of cost_usd).
  costUsd: string;
}

export interface LlmStore {
  // Response body of an earlier successful uncached call with this key, or null.
  findCached(cacheKey: string): Promise<CachedAnswer | null>;
  // Writes a call's 'sent' row (status 'sent', an id) before its request goes out, and commits
  // its reserved cost against its run's cost limit: rejects with CostLimitError, writing
  // nothing, when it does not fit. Never buffered.
  recordSent(call: LlmCallRecord): Promise<void>;
  // Writes a record; one with the id of a 'sent' row settles that row.
  record(call: LlmCallRecord): Promise<void>;
  totals(filter?: { runId?: string }): Promise<LlmLedgerTotals>;
  // Writes anything buffered (batching stores); a no-op otherwise.
  flush(): Promise<void>;
}

export function statusOf(c: LlmCallRecord): LlmCallStatus {
  return c.status ?? (c.cacheHit ? 'cached' : c.error !== null ? 'error' : 'ok');
}

export function isCacheable(c: LlmCallRecord): boolean {
  return !c.cacheHit && c.error === null && c.response !== null;
}
