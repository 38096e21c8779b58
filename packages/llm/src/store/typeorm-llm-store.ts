import { preparedQuery } from '@precis/db';
import { TurnBatcher } from '@precis/db/group-commit';
import type { DataSource } from 'typeorm';
import { formatCost, parseCost } from '../cost.js';
import { CostLimitError } from '../errors.js';
import { ledgerInsertSql, ledgerRowsJson } from '../ledger-rows.js';
import { ledgerScopeOf } from './ledger-scope.js';
import {
  type CachedAnswer,
  isCacheable,
  type LlmCallRecord,
  type LlmLedgerTotals,
  type LlmStore,
} from './llm-store.js';

const LEDGER_INSERT = ledgerInsertSql('$1::jsonb');

export interface TypeOrmLlmStoreOptions {
  // Buffer ledger rows and write them as multi-row inserts (fewer round trips under load).
  // Rows are written when maxRows are pending or maxDelayMs after the first pending one,
  // and by flush(). Off by default: every record() is written before it resolves.
  batch?: { maxRows?: number; maxDelayMs?: number };
  // Group commit (default on): concurrent record() and findCached() calls issued in the same
  // event-loop turn share one multi-row INSERT / one lookup query. Unlike `batch`, every
  // record() still resolves only after its row is written.
  groupCommit?: boolean;
}

// Cache + ledger on the llm_calls table (@precis/db's LlmCallEntity).
export class TypeOrmLlmStore implements LlmStore {
  private pending: LlmCallRecord[] = [];
  // Cacheable responses not yet written, so a lookup sees them before the batch lands.
  private readonly pendingCache = new Map<string, Record<string, unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  // Group commit: every record() / findCached() of one event-loop turn goes into one INSERT / one
  // lookup (the insert chunks itself, so no batch limit). A failed INSERT is retried row by row,
  // so one bad row cannot fail the calls it was grouped with.
  private readonly groupWrites = new TurnBatcher<LlmCallRecord, void>(
    async (calls) => {
      await this.insert(calls);
      return calls.map(() => undefined);
    },
    { maxBatch: Number.POSITIVE_INFINITY },
  );
  // 'sent' rows of one turn share one INSERT; a row over its run's cost limit fails that INSERT,
  // and the rows are then written one by one, so only that call is refused.
  private readonly groupSends = new TurnBatcher<LlmCallRecord, void>(
    async (calls) => {
      await this.insertSent(calls);
      return calls.map(() => undefined);
    },
    { maxBatch: Number.POSITIVE_INFINITY },
  );
  private readonly groupLookups = new TurnBatcher<string, CachedAnswer | null>(
    async (keys) => {
      const found = await this.lookupMany([...new Set(keys)]);
      return keys.map((key) => found.get(key) ?? null);
    },
    { maxBatch: Number.POSITIVE_INFINITY, retryEach: false },
  );

  constructor(
    private readonly ds: DataSource,
    private readonly opts: TypeOrmLlmStoreOptions = {},
  ) {}

  async findCached(cacheKey: string): Promise<CachedAnswer | null> {
    const buffered = this.pendingCache.get(cacheKey);
    if (buffered) return { body: buffered, batchTaskId: null };
    if (this.opts.groupCommit !== false) return this.groupLookups.submit(cacheKey);
    return (await this.lookupMany([cacheKey])).get(cacheKey) ?? null;
  }

  async recordSent(call: LlmCallRecord): Promise<void> {
    const scope = ledgerScopeOf(call.taskId);
    if (scope?.holding()) {
      // The task's held records and this 'sent' row in one statement; when that fails (e.g. the
      // 'sent' row is over the run's cost limit), the held records alone, then the 'sent' row.
      const together = await scope.writeHeld((rows) =>
        this.insert([...rows, call]).then(
          () => true,
          () => this.insert(rows).then(() => false),
        ),
      );
      if (together) return;
      return this.insertSent([call]);
    }
    if (this.opts.groupCommit !== false) return this.groupSends.submit(call);
    return this.insertSent([call]);
  }

  async record(call: LlmCallRecord): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.opts.batch) {
      if (this.opts.groupCommit === false) return this.insert([call]);
      // Held for the task's next statement (ledger-scope.ts) when its work runs in a scope.
      const scope = ledgerScopeOf(call.taskId);
      if (scope) return scope.hold(call, (rows) => this.insert(rows));
      return this.groupWrites.submit(call);
    }
    this.pending.push(call);
    if (isCacheable(call) && call.response) this.pendingCache.set(call.cacheKey, call.response);
    const maxRows = this.opts.batch.maxRows ?? 500;
    if (this.pending.length >= maxRows) {
      void this.writeBatch();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => void this.writeBatch(), this.opts.batch.maxDelayMs ?? 50);
    }
  }

  async flush(): Promise<void> {
    await this.writeBatch();
    if (this.failure) throw this.failure;
  }

  async totals(filter: { runId?: string } = {}): Promise<LlmLedgerTotals> {
    await this.flush();
    const where = filter.runId === undefined ? '' : 'WHERE run_id = $1';
    const rows: Record<string, string | number | null>[] = await this.ds.query(
      `SELECT coalesce(sum(calls), 0)::text AS calls,
              coalesce(sum(calls) FILTER (WHERE cache_hit), 0)::text AS cache_hits,
              coalesce(sum(calls) FILTER (WHERE error IS NOT NULL), 0)::text AS errors,
              coalesce(sum(calls) FILTER (WHERE status = 'sent'), 0)::text AS sent,
              coalesce(sum(tokens_in), 0)::text AS tokens_in,
              coalesce(sum(tokens_out), 0)::text AS tokens_out,
              coalesce(sum(cost_usd), 0)::text AS cost
         FROM llm_calls ${where}`,
      filter.runId === undefined ? [] : [filter.runId],
    );
    const r = rows[0] ?? {};
    return {
      calls: Number(r.calls ?? 0),
      cacheHits: Number(r.cache_hits ?? 0),
      errors: Number(r.errors ?? 0),
      sent: Number(r.sent ?? 0),
      tokensIn: Number(r.tokens_in ?? 0),
      tokensOut: Number(r.tokens_out ?? 0),
      // Re-format so pg ("1.5000000000") and PGlite text agree.
      costUsd: formatCost(parseCost(String(r.cost ?? '0'))),
    };
  }

  private async lookupMany(keys: string[]): Promise<Map<string, CachedAnswer>> {
    // One index probe per key. The shape matters: `cache_key = ANY($1)` over the whole table is
    // estimated from statistics, and without them (autovacuum off, a table that just grew) the
    // planner picked sequential scans of llm_calls for it; a per-key LIMIT 1 is always an index scan.
    const rows: {
      cache_key: string;
      response: Record<string, unknown> | string;
      batch_task: string | null;
    }[] = await this.ds.query(
      `SELECT k.key AS cache_key, c.response, CASE WHEN c.batched THEN c.task_id END AS batch_task
           FROM unnest($1::text[]) AS k(key)
           JOIN LATERAL (SELECT response, batched, task_id FROM llm_calls c
                  WHERE c.cache_key = k.key AND c.cache_hit = false AND c.error IS NULL AND c.response IS NOT NULL
                  ORDER BY c.created_at DESC LIMIT 1) AS c ON true`,
      [keys],
    );
    const out = new Map<string, CachedAnswer>();
    for (const r of rows) {
      const body = typeof r.response === 'string' ? JSON.parse(r.response) : r.response;
      out.set(r.cache_key, { body, batchTaskId: r.batch_task });
    }
    return out;
  }

  // Serialized so batches land in order and flush() waits for the one in progress.
  private writeBatch(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = this.pending;
    this.pending = [];
    this.writing = this.writing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.insert(rows);
      } catch (err) {
        this.failure = new Error(`cannot write ${rows.length} LLM ledger rows: ${(err as Error).message}`, {
          cause: err,
        });
      } finally {
        for (const r of rows)
          if (this.pendingCache.get(r.cacheKey) === r.response) this.pendingCache.delete(r.cacheKey);
      }
    });
    return this.writing;
  }

  private async insertSent(rows: LlmCallRecord[]): Promise<void> {
    try {
      await this.insert(rows);
    } catch (err) {
      throw rows.length === 1 ? (costLimitError(err, rows[0]!) ?? err) : err;
    }
  }

  // One statement per chunk, the rows passed as a single JSON parameter: the ledger is written on
  // every call, so this path stays lean (no per-column parameter building).
  private async insert(rows: readonly LlmCallRecord[]): Promise<void> {
    const chunk = 500;
    for (let i = 0; i < rows.length; i += chunk) {
      await preparedQuery(this.ds, LEDGER_INSERT, [ledgerRowsJson(rows.slice(i, i + chunk))]);
    }
  }
}

// The llm_calls trigger refuses a 'sent' row over its run's limit with SQLSTATE PR001 and the
// amounts as JSON in the detail (migration RunCostLimit).
export function costLimitError(err: unknown, row: LlmCallRecord): CostLimitError | null {
  const e = err as { code?: string; detail?: string; driverError?: { code?: string; detail?: string } };
  const code = e.code ?? e.driverError?.code;
  const detail = e.detail ?? e.driverError?.detail;
  if (code !== 'PR001' || !detail || row.runId === null) return null;
  const d = JSON.parse(detail) as { limit: string; committed: string; reserve: string };
  const fmt = (v: string) => formatCost(parseCost(v));
  return new CostLimitError(row.model, row.runId, fmt(d.limit), fmt(d.committed), fmt(d.reserve));
}

export function createTypeOrmLlmStore(ds: DataSource, opts?: TypeOrmLlmStoreOptions): TypeOrmLlmStore {
  return new TypeOrmLlmStore(ds, opts);
}
