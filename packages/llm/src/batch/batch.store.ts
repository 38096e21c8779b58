// The durable state of batch mode (issue 39) in PostgreSQL or PGlite: calls parked for a batch
// (one per cache key, with the tasks waiting for it), batches taken per endpoint by one batcher at
// a time, and their settlement. The provider side is provider-batch.ts.
import { batcherFor, type TurnBatcher } from '@precis/db/group-commit';
import type { DataSource } from 'typeorm';
import { ledgerInsertSql, ledgerRowsJson } from '../ledger-rows.js';
import type { LlmCallRecord } from '../store/llm-store.js';
import { costLimitError } from '../store/typeorm-llm-store.js';
import type { BatchFileLimits, ProviderBatchState } from './provider-batch.js';

export interface ParkedCall {
  cacheKey: string;
  endpoint: string;
  model: string;
  request: Record<string, unknown>;
  taskId: string;
  runId: string | null;
  // The call's 'sent' ledger row at the batch price (with its id), written when this park is the
  // one that queues the call: its reserved cost counts against the run's limit from then on.
  sent: LlmCallRecord;
}

// What a task's park found: the call now waits for a batch (parked), or it failed in a batch
// this task waited for (told once; the next park sends it again).
export type ParkOutcome =
  | { parked: true }
  | { parked: false; error: string; status: number | null; expired: boolean };

// Bytes a call adds to an input file besides its body (custom_id, method, url: about 70 with a
// chat url). Generous, and jsonb's text (spaces after ':' and ',') is longer than the line's
// JSON: a batch taken within maxBytes makes one input file (batchInputFiles).
const LINE_OVERHEAD = 160;

// Parks a call for the next batch of its endpoint and records the task waiting for it; a call
// already parked (another task, or the same one again) is not parked twice, and its ledger row is
// written once. Over the run's cost limit: CostLimitError, nothing parked. Parks made in one
// event-loop turn share one transaction (a task's n samples park together); a group that fails
// is parked again call by call, so one call over the limit refuses only itself.
export function parkCall(db: DataSource, c: ParkedCall): Promise<ParkOutcome> {
  return batcherFor(parkBatchers, db, (calls: ParkedCall[]) => parkCalls(db, calls)).submit(c);
}

const parkBatchers = new WeakMap<DataSource, TurnBatcher<ParkedCall, ParkOutcome>>();

async function parkCalls(db: DataSource, calls: ParkedCall[]): Promise<ParkOutcome[]> {
  try {
    return await db.transaction(async (tx) => {
      // Failures told to their waiting tasks: each is told once. (Rows are written in key order,
      // so two processes parking the same calls never wait on each other in a cycle.)
      const told: {
        cache_key: string;
        task_id: string;
        error: string;
        http_status: number | null;
        expired: boolean;
      }[] = await tx.query(
        `WITH told AS (
             DELETE FROM llm_batch_waiters AS w USING unnest($1::text[], $2::text[]) AS k(key, task)
             WHERE w.cache_key = k.key AND w.task_id = k.task AND w.error IS NOT NULL
             RETURNING w.cache_key, w.task_id, w.error, w.http_status, w.expired
           ) SELECT * FROM told`,
        [calls.map((c) => c.cacheKey), calls.map((c) => c.taskId)],
      );
      const failures = new Map(told.map((t) => [`${t.cache_key}\u0000${t.task_id}`, t]));
      const outcomeOf = (c: ParkedCall): ParkOutcome => {
        const t = failures.get(`${c.cacheKey}\u0000${c.taskId}`);
        return t
          ? { parked: false, error: t.error, status: t.http_status, expired: t.expired }
          : { parked: true };
      };
      const parking = calls.filter((c) => outcomeOf(c).parked);
      const inserted: { cache_key: string }[] = await tx.query(
        `INSERT INTO llm_batch_calls (cache_key, endpoint, model, request, ledger_id)
         SELECT key, endpoint, model, request, ledger_id
         FROM jsonb_to_recordset($1::jsonb) AS i(key text, endpoint text, model text, request jsonb, ledger_id uuid)
         ORDER BY key
         ON CONFLICT (cache_key) DO NOTHING RETURNING cache_key`,
        [
          JSON.stringify(
            parking.map((c) => ({
              key: c.cacheKey,
              endpoint: c.endpoint,
              model: c.model,
              request: c.request,
              ledger_id: c.sent.id,
            })),
          ),
        ],
      );
      // The ledger row of each call this group queued (the first asker's, when two asked).
      const queued = new Set(inserted.map((r) => r.cache_key));
      const sent = parking.filter((c) => queued.delete(c.cacheKey)).map((c) => c.sent);
      if (sent.length) await tx.query(ledgerInsertSql('$1::jsonb'), [ledgerRowsJson(sent)]);
      if (parking.length)
        await tx.query(
          `INSERT INTO llm_batch_waiters (cache_key, task_id, run_id)
           SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[]) AS w(key, task, run) ORDER BY key, task
           ON CONFLICT DO NOTHING`,
          [parking.map((c) => c.cacheKey), parking.map((c) => c.taskId), parking.map((c) => c.runId)],
        );
      return calls.map(outcomeOf);
    });
  } catch (err) {
    throw (calls.length === 1 ? costLimitError(err, calls[0]!.sent) : null) ?? err;
  }
}

export interface TakenBatch {
  batchId: string;
  calls: { cacheKey: string; request: Record<string, unknown> }[];
}

// The oldest queued calls of an endpoint, within `limits`, taken into a new 'preparing' batch;
// null when none is queued or another batcher is taking this endpoint's calls right now.
export async function takeQueuedCalls(
  db: DataSource,
  endpoint: string,
  limits: BatchFileLimits,
): Promise<TakenBatch | null> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [
      `precis-batch:${endpoint}`,
    ]);
    if (!lock.ok) return null;
    const picked: { cache_key: string }[] = await tx.query(
      `SELECT cache_key FROM (
         SELECT cache_key,
                row_number() OVER w AS n,
                sum(octet_length(request::text) + ${LINE_OVERHEAD} + octet_length(cache_key)) OVER w AS bytes
         FROM llm_batch_calls WHERE endpoint = $1 AND status = 'queued'
         WINDOW w AS (ORDER BY queued_at, cache_key)
       ) AS q WHERE n <= $2 AND bytes <= $3 ORDER BY n`,
      [endpoint, limits.maxRequests, limits.maxBytes],
    );
    if (picked.length === 0) return null;
    const [batch] = await tx.query(
      `INSERT INTO llm_batches (endpoint, status, requests) VALUES ($1, 'preparing', $2) RETURNING id`,
      [endpoint, picked.length],
    );
    const calls: { cache_key: string; request: Record<string, unknown>; n: string }[] = await tx.query(
      `WITH taken AS (
         UPDATE llm_batch_calls AS c SET status = 'submitted', batch_id = $1
         FROM unnest($2::text[]) WITH ORDINALITY AS k(key, n)
         WHERE c.cache_key = k.key RETURNING c.cache_key, c.request, k.n
       ) SELECT * FROM taken`,
      [batch.id, picked.map((p) => p.cache_key)],
    );
    return {
      batchId: batch.id,
      calls: calls
        .sort((a, b) => Number(a.n) - Number(b.n))
        .map((c) => ({ cacheKey: c.cache_key, request: c.request })),
    };
  });
}

export async function markSubmitted(
  db: DataSource,
  batchId: string,
  provider: { batchId: string; fileId: string },
): Promise<void> {
  await db.query(
    `UPDATE llm_batches SET status = 'validating', provider_batch_id = $2, input_file_id = $3, submitted_at = now()
     WHERE id = $1 AND status = 'preparing'`,
    [batchId, provider.batchId, provider.fileId],
  );
}

// The provider's view of a submitted batch, as last polled.
export async function recordBatchState(
  db: DataSource,
  batchId: string,
  state: ProviderBatchState,
): Promise<void> {
  await db.query(
    `UPDATE llm_batches SET status = $2, completed = $3, failed = $4, error = $5
     WHERE id = $1 AND ended_at IS NULL`,
    [batchId, state.status, state.counts.completed, state.counts.failed, state.errors.join('\n') || null],
  );
}

export interface StoredBatch {
  id: string;
  status: string;
  providerBatchId: string | null;
}

// An endpoint's batches sent and not settled, and those left 'preparing' longer than `graceMs`
// (their taker died between taking the calls and storing the provider's id).
export async function unsettledBatches(
  db: DataSource,
  endpoint: string,
  graceMs: number,
): Promise<{ open: StoredBatch[]; stranded: StoredBatch[] }> {
  const rows: { id: string; status: string; provider_batch_id: string | null; age_ms: number }[] =
    await db.query(
      `SELECT id, status, provider_batch_id, extract(epoch FROM now() - created_at) * 1000 AS age_ms
     FROM llm_batches WHERE endpoint = $1 AND ended_at IS NULL ORDER BY created_at, id`,
      [endpoint],
    );
  const batch = (r: (typeof rows)[number]) => ({
    id: r.id,
    status: r.status,
    providerBatchId: r.provider_batch_id,
  });
  return {
    open: rows.filter((r) => r.provider_batch_id).map(batch),
    stranded: rows.filter((r) => !r.provider_batch_id && Number(r.age_ms) >= graceMs).map(batch),
  };
}

// The calls a batch took, in the order they were taken, and how often each went back to the queue.
export async function callsOfBatch(
  db: DataSource,
  batchId: string,
): Promise<(TakenBatch['calls'][number] & { expirations: number })[]> {
  const rows: { cache_key: string; request: Record<string, unknown>; expirations: number }[] = await db.query(
    `SELECT cache_key, request, expirations FROM llm_batch_calls WHERE batch_id = $1 AND status = 'submitted'
     ORDER BY queued_at, cache_key`,
    [batchId],
  );
  return rows.map((r) => ({ cacheKey: r.cache_key, request: r.request, expirations: Number(r.expirations) }));
}

// An endpoint's queued calls and how long since the last one was queued (ms).
export async function queuedCallsOf(
  db: DataSource,
  endpoint: string,
): Promise<{ count: number; quietMs: number }> {
  const [row] = await db.query(
    `SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - max(queued_at)) * 1000, 0) AS quiet_ms
     FROM llm_batch_calls WHERE endpoint = $1 AND status = 'queued'`,
    [endpoint],
  );
  return { count: Number(row.n), quietMs: Number(row.quiet_ms) };
}
