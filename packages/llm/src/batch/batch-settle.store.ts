// Settling an ended provider batch (issue 39): each call's outcome goes into the batch tables and
// the call's ledger row (answered at the batch price, or failed at no cost), and the tasks waiting
// for it are returned to run again. Idempotent: a batch settled once changes nothing after.
import type { DataSource, EntityManager } from 'typeorm';

// The ledger columns of an answered call (what the cache then serves), priced by the batcher.
export interface AnsweredLedger {
  response: Record<string, unknown>;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  tokensReasoning: number;
  // Paid (the batch price, also the call's list cost) and what it would have cost online.
  costUsd: string;
  onlineCostUsd: string;
}

// One call's outcome in an ended batch: answered; failed (its waiting tasks are told why, and the
// call may be parked again); or requeued into the next batch (expired, or a transient error).
export type SettledCall =
  | { cacheKey: string; outcome: 'answered'; ledger: AnsweredLedger }
  | { cacheKey: string; outcome: 'failed'; error: string; status: number | null; expired: boolean }
  | { cacheKey: string; outcome: 'requeued' };

export interface Settlement {
  answered: string[];
  failed: string[];
  requeued: string[];
  // Tasks waiting for the answered or failed calls: theirs to run again.
  tasks: { taskId: string; runId: string | null }[];
}

export async function settleBatch(
  db: DataSource,
  batchId: string,
  calls: SettledCall[],
): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const [open] = await tx.query('SELECT 1 FROM llm_batches WHERE id = $1 AND ended_at IS NULL FOR UPDATE', [
      batchId,
    ]);
    if (!open) return { answered: [], failed: [], requeued: [], tasks: [] };
    // Only this batch's calls: an outcome naming another key changes nothing.
    const answered = await settleAnswered(tx, batchId, calls);
    const failed = await settleFailed(tx, batchId, calls);
    // Requeued: expired or transient, and calls no result line names.
    const requeued: { cache_key: string }[] = await tx.query(
      `WITH again AS (
         UPDATE llm_batch_calls SET status = 'queued', batch_id = NULL, expirations = expirations + 1, queued_at = now()
         WHERE batch_id = $1 AND status = 'submitted' RETURNING cache_key
       ) SELECT cache_key FROM again`,
      [batchId],
    );
    const released: { task_id: string; run_id: string | null }[] = await tx.query(
      `WITH gone AS (DELETE FROM llm_batch_waiters WHERE cache_key = ANY($1::text[]) AND error IS NULL RETURNING task_id, run_id)
       SELECT task_id, run_id FROM gone UNION SELECT task_id, run_id FROM llm_batch_waiters WHERE cache_key = ANY($2::text[])
       ORDER BY task_id`,
      [answered, failed],
    );
    await tx.query('UPDATE llm_batches SET ended_at = now() WHERE id = $1', [batchId]);
    return {
      answered: answered.sort(),
      failed: failed.sort(),
      requeued: requeued.map((r) => r.cache_key).sort(),
      tasks: released.map((t) => ({ taskId: t.task_id, runId: t.run_id })),
    };
  });
}

// Answered calls end (the answer is in the ledger, which is the cache), and their ledger rows
// ('sent' since parked) become the answers.
async function settleAnswered(tx: EntityManager, batchId: string, calls: SettledCall[]): Promise<string[]> {
  const answers = new Map(calls.flatMap((c) => (c.outcome === 'answered' ? [[c.cacheKey, c.ledger]] : [])));
  const done = await takeCalls(tx, batchId, [...answers.keys()]);
  const rows = done.map((d) => {
    const a = answers.get(d.cache_key)!;
    return {
      id: d.ledger_id,
      request: d.request,
      attempts: 1 + Number(d.expirations),
      response: a.response,
      tokens_in: a.tokensIn,
      tokens_out: a.tokensOut,
      tokens_cached: a.tokensCached,
      tokens_reasoning: a.tokensReasoning,
      cost_usd: a.costUsd,
      online_cost_usd: a.onlineCostUsd,
    };
  });
  await tx.query(
    `UPDATE llm_calls AS l SET status = 'ok', request = i.request, response = i.response, tokens_in = i.tokens_in,
       tokens_out = i.tokens_out, tokens_cached = i.tokens_cached, tokens_reasoning = i.tokens_reasoning,
       cost_usd = i.cost_usd, list_cost_usd = i.cost_usd, online_cost_usd = i.online_cost_usd, attempts = i.attempts,
       batch_id = $1, error = NULL, latency_ms = (extract(epoch FROM now() - l.created_at) * 1000)::integer
     FROM jsonb_to_recordset($2::jsonb) AS i(id uuid, request jsonb, attempts integer, response jsonb, tokens_in integer,
       tokens_out integer, tokens_cached integer, tokens_reasoning integer, cost_usd numeric, online_cost_usd numeric)
     WHERE l.id = i.id`,
    [batchId, JSON.stringify(rows)],
  );
  return done.map((d) => d.cache_key);
}

// Takes these calls of the batch out of llm_batch_calls. (The keys go in as an array and the
// outcomes are joined in here: joining a JSON recordset in SQL, the planner rescanned it per row.)
async function takeCalls(tx: EntityManager, batchId: string, keys: string[]) {
  const rows: { cache_key: string; ledger_id: string; request: unknown; expirations: number }[] =
    await tx.query(
      `WITH gone AS (
       DELETE FROM llm_batch_calls WHERE cache_key = ANY($2::text[]) AND batch_id = $1 AND status = 'submitted'
       RETURNING cache_key, ledger_id, request, expirations
     ) SELECT * FROM gone`,
      [batchId, keys],
    );
  return rows;
}

// Failed calls go (a later park sends them again); their ledger rows settle as errors at no cost,
// and each waiting task is told why.
async function settleFailed(tx: EntityManager, batchId: string, calls: SettledCall[]): Promise<string[]> {
  const failures = new Map(calls.flatMap((c) => (c.outcome === 'failed' ? [[c.cacheKey, c]] : [])));
  const gone = await takeCalls(tx, batchId, [...failures.keys()]);
  const rows = gone.map((g) => {
    const f = failures.get(g.cache_key)!;
    if (f.outcome !== 'failed') throw new Error('unreachable');
    return {
      key: g.cache_key,
      id: g.ledger_id,
      request: g.request,
      attempts: 1 + Number(g.expirations),
      error: f.error,
      status: f.status,
      expired: f.expired,
    };
  });
  await tx.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb)
         AS i(key text, id uuid, request jsonb, attempts integer, error text, status integer, expired boolean)
     ), ledger AS (
       UPDATE llm_calls AS l SET status = 'error', request = i.request, cost_usd = 0, list_cost_usd = 0,
         attempts = i.attempts, batch_id = $1, error = i.error,
         latency_ms = (extract(epoch FROM now() - l.created_at) * 1000)::integer
       FROM input AS i WHERE l.id = i.id
     )
     UPDATE llm_batch_waiters AS w SET error = i.error, http_status = i.status, expired = i.expired
     FROM input AS i WHERE w.cache_key = i.key`,
    [batchId, JSON.stringify(rows)],
  );
  return gone.map((g) => g.cache_key);
}
