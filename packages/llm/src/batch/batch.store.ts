// The durable state of batch mode (issue 39) in PostgreSQL or PGlite: calls parked for a batch
// (one per cache key, with the tasks waiting for it), batches taken per endpoint by one batcher at
// a time, and their settlement. The provider side is provider-batch.ts.
import type { DataSource } from 'typeorm';
import type { BatchFileLimits, BatchLineResult, ProviderBatchState } from './provider-batch.js';

export interface ParkedCall {
  cacheKey: string;
  endpoint: string;
  model: string;
  request: Record<string, unknown>;
  taskId: string;
  runId: string | null;
}

// Bytes a call adds to an input file besides its body (custom_id, method, url: about 70 with a
// chat url). Generous, and jsonb's text (spaces after ':' and ',') is longer than the line's
// JSON: a batch taken within maxBytes makes one input file (batchInputFiles).
const LINE_OVERHEAD = 160;

// Parks a call for the next batch of its endpoint and records the task waiting for it; a call
// already parked (another task, or the same one again) is not parked twice. Its status after.
export async function parkCall(db: DataSource, c: ParkedCall): Promise<string> {
  const rows: { status: string }[] = await db.query(
    `WITH call AS (
       INSERT INTO llm_batch_calls (cache_key, endpoint, model, request) VALUES ($1, $2, $3, $4)
       ON CONFLICT (cache_key) DO UPDATE SET cache_key = EXCLUDED.cache_key
       RETURNING status
     ), waiter AS (
       INSERT INTO llm_batch_waiters (cache_key, task_id, run_id) VALUES ($1, $5, $6)
       ON CONFLICT DO NOTHING
     )
     SELECT status FROM call`,
    [c.cacheKey, c.endpoint, c.model, c.request, c.taskId, c.runId],
  );
  return rows[0]!.status;
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

export interface Settlement {
  answered: string[];
  failed: string[];
  requeued: string[];
  // Tasks waiting for the answered or failed calls: theirs to run again.
  tasks: { taskId: string; runId: string | null }[];
}

// Writes an ended batch's results: answered and failed calls end (their waiters are returned and
// forgotten); expired calls, and calls the results do not name, are queued again. Idempotent: a
// batch already settled changes nothing.
export async function settleBatch(
  db: DataSource,
  batchId: string,
  results: BatchLineResult[],
): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const [open] = await tx.query('SELECT 1 FROM llm_batches WHERE id = $1 AND ended_at IS NULL FOR UPDATE', [
      batchId,
    ]);
    if (!open) return { answered: [], failed: [], requeued: [], tasks: [] };
    // Only this batch's calls: a result naming another key changes nothing.
    const ok = results.filter((r) => r.ok).map((r) => r.customId);
    const bad = results.filter((r) => !r.ok && !r.expired);
    const answered: { cache_key: string }[] = await tx.query(
      `WITH done AS (
         UPDATE llm_batch_calls SET status = 'answered', error = NULL
         WHERE batch_id = $1 AND status = 'submitted' AND cache_key = ANY($2::text[]) RETURNING cache_key
       ) SELECT cache_key FROM done`,
      [batchId, ok],
    );
    const failed: { cache_key: string }[] = await tx.query(
      `WITH done AS (
         UPDATE llm_batch_calls AS c SET status = 'failed', error = f.error
         FROM unnest($2::text[], $3::text[]) AS f(key, error)
         WHERE c.batch_id = $1 AND c.status = 'submitted' AND c.cache_key = f.key RETURNING c.cache_key
       ) SELECT cache_key FROM done`,
      [batchId, bad.map((r) => r.customId), bad.map((r) => (r.ok ? '' : r.message))],
    );
    const requeued: { cache_key: string }[] = await tx.query(
      `WITH again AS (
         UPDATE llm_batch_calls SET status = 'queued', batch_id = NULL, expirations = expirations + 1, queued_at = now()
         WHERE batch_id = $1 AND status = 'submitted' RETURNING cache_key
       ) SELECT cache_key FROM again`,
      [batchId],
    );
    const tasks: { task_id: string; run_id: string | null }[] = await tx.query(
      `WITH gone AS (DELETE FROM llm_batch_waiters WHERE cache_key = ANY($1::text[]) RETURNING task_id, run_id)
       SELECT DISTINCT task_id, run_id FROM gone ORDER BY task_id`,
      [[...answered, ...failed].map((r) => r.cache_key)],
    );
    await tx.query('UPDATE llm_batches SET ended_at = now() WHERE id = $1', [batchId]);
    return {
      answered: answered.map((r) => r.cache_key).sort(),
      failed: failed.map((r) => r.cache_key).sort(),
      requeued: requeued.map((r) => r.cache_key).sort(),
      tasks: tasks.map((t) => ({ taskId: t.task_id, runId: t.run_id })),
    };
  });
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

// The calls a batch took, in the order they were taken.
export async function callsOfBatch(db: DataSource, batchId: string): Promise<TakenBatch['calls']> {
  const rows: { cache_key: string; request: Record<string, unknown> }[] = await db.query(
    `SELECT cache_key, request FROM llm_batch_calls WHERE batch_id = $1 AND status = 'submitted'
     ORDER BY queued_at, cache_key`,
    [batchId],
  );
  return rows.map((r) => ({ cacheKey: r.cache_key, request: r.request }));
}
