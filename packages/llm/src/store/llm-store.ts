// Persistence the client needs: the content-addressed response cache and the call ledger.

export interface LlmCallRecord {
  runId: string | null;
  taskId: string | null;
  // Registry name and provider model id.
  model: string;
  modelId: string;
  kind: 'chat' | 'embedding';
  cacheKey: string;
  cacheHit: boolean;
  templateVersion: string | null;
  request: Record<string, unknown>;
  // Provider response body for successful uncached calls (this is what the cache serves).
  response: Record<string, unknown> | null;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  // Exact decimal string with 10 fractional digits.
  costUsd: string;
  attempts: number;
  error: string | null;
  // Calls this record accounts for: 1, or the n cache hits of one n-sample request recorded
  // together (their keys in request.cachedAs). Ledger counts sum it.
  calls: number;
}

export interface LlmLedgerTotals {
  // Model calls and cache hits (a grouped cache-hit record counts each call it stands for).
  calls: number;
  cacheHits: number;
  errors: number;
  tokensIn: number;
  tokensOut: number;
  // Exact decimal string (sum of cost_usd).
  costUsd: string;
}

export interface LlmStore {
  // Response body of an earlier successful uncached call with this key, or null.
  findCached(cacheKey: string): Promise<Record<string, unknown> | null>;
  record(call: LlmCallRecord): Promise<void>;
  totals(filter?: { runId?: string }): Promise<LlmLedgerTotals>;
  // Writes anything buffered (batching stores); a no-op otherwise.
  flush(): Promise<void>;
  // True when this store writes each record, before record() resolves, to the database `db`
  // stands for (the same DataSource). A caller may then write its calls' rows itself, in the
  // statement that stores their result (LlmClient.deferLedger).
  sharesDatabase?(db: unknown): boolean;
}

export function isCacheable(c: LlmCallRecord): boolean {
  return !c.cacheHit && c.error === null && c.response !== null;
}
