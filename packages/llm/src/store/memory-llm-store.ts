import { formatCost, parseCost } from '../cost.js';
import {
  type CachedAnswer,
  isCacheable,
  type LlmCallRecord,
  type LlmLedgerTotals,
  type LlmStore,
  statusOf,
} from './llm-store.js';

// In-memory store for unit tests and runs that need no persistence (no runs, so no cost limits).
export class MemoryLlmStore implements LlmStore {
  readonly calls: LlmCallRecord[] = [];
  private readonly cache = new Map<string, Record<string, unknown>>();
  // Where each 'sent' row stands in `calls`, until it is settled.
  private readonly sentAt = new Map<string, number>();

  async findCached(cacheKey: string): Promise<CachedAnswer | null> {
    const body = this.cache.get(cacheKey);
    return body ? { body, batchTaskId: null } : null;
  }

  async recordSent(call: LlmCallRecord): Promise<void> {
    if (call.id !== undefined) this.sentAt.set(call.id, this.calls.length);
    this.calls.push(call);
  }

  async record(call: LlmCallRecord): Promise<void> {
    // A settled call replaces its 'sent' row, where it stood.
    const at = call.id === undefined ? undefined : this.sentAt.get(call.id);
    if (at === undefined) this.calls.push(call);
    else {
      this.calls[at] = call;
      this.sentAt.delete(call.id!);
    }
    if (isCacheable(call) && call.response) this.cache.set(call.cacheKey, call.response);
  }

  async totals(filter: { runId?: string } = {}): Promise<LlmLedgerTotals> {
    return sumRecords(this.calls.filter((c) => filter.runId === undefined || c.runId === filter.runId));
  }

  async flush(): Promise<void> {}
}

export function sumRecords(rows: LlmCallRecord[]): LlmLedgerTotals {
  let cost = 0n;
  const t = { calls: 0, cacheHits: 0, errors: 0, sent: 0, tokensIn: 0, tokensOut: 0 };
  for (const r of rows) {
    t.calls += r.calls;
    if (r.cacheHit) t.cacheHits += r.calls;
    if (r.error !== null) t.errors += r.calls;
    if (statusOf(r) === 'sent') t.sent += r.calls;
    t.tokensIn += r.tokensIn;
    t.tokensOut += r.tokensOut;
    cost += parseCost(r.costUsd);
  }
  return { ...t, costUsd: formatCost(cost) };
}
