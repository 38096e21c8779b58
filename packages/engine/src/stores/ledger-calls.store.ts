import type { DataSource } from 'typeorm';
import type { FillerRow, LedgerRow } from '../queries/ledger-call-view.js';

// The ledger's rows of one document's calls in a run, page by page, and the rows that filled the
// cache entries its cache hits replayed.

export interface DocumentCallsKey {
  runId: string;
  documentId: string;
  // '' for every system.
  system: string;
}

// The run's calls of one document: task ids are `<run>:<stage>:<system>:<document id>:...`
// ($2 the document id, $3 the system or ''). By system, then in the order they were made.
const DOCUMENT_CALLS = `FROM llm_calls c
  WHERE c.run_id = $1 AND c.task_id IS NOT NULL AND split_part(c.task_id, ':', 4) = $2
    AND ($3 = '' OR split_part(c.task_id, ':', 3) = $3)`;
// Calls written in one batch share their created_at: the task id then keeps planned steps in order.
const KEY = `(split_part(c.task_id, ':', 3), c.created_at, c.task_id, c.id)`;
const ORDER = `split_part(c.task_id, ':', 3), c.created_at, c.task_id, c.id`;

const paramsOf = (k: DocumentCallsKey): unknown[] => [k.runId, k.documentId, k.system];

// Whether `callId` is one of the document's calls.
export async function hasDocumentCall(db: DataSource, k: DocumentCallsKey, callId: string): Promise<boolean> {
  const found = await db.query(`SELECT 1 ${DOCUMENT_CALLS} AND c.id::text = $4`, [...paramsOf(k), callId]);
  return found.length > 0;
}

export async function countDocumentCalls(db: DataSource, k: DocumentCallsKey): Promise<string | number> {
  const [count] = await db.query(`SELECT count(*) AS n ${DOCUMENT_CALLS}`, paramsOf(k));
  return count.n;
}

// Up to `limit` of the document's calls in order, after call `after` when given.
export async function documentCallRows(
  db: DataSource,
  k: DocumentCallsKey,
  after: string | null,
  limit: number,
): Promise<LedgerRow[]> {
  const afterSql = after
    ? `AND ${KEY} > (SELECT split_part(p.task_id, ':', 3), p.created_at, p.task_id, p.id FROM llm_calls p WHERE p.id::text = $5)`
    : '';
  return db.query(
    `SELECT c.id, c.run_id, c.task_id, c.model, c.model_id, c.kind, c.status, c.cache_hit, c.calls,
            c.template_version, c.created_at, c.latency_ms, c.attempts, c.error, c.notes, c.tokens_in,
            c.tokens_cached, c.tokens_out, c.tokens_reasoning, c.cost_usd, c.list_cost_usd, c.request,
            c.response
     ${DOCUMENT_CALLS} ${afterSql} ORDER BY ${ORDER} LIMIT $4`,
    [...paramsOf(k), limit, ...(after ? [after] : [])],
  );
}

// Per (hit, cache key) wanted, in order: the latest answered row of that key made before the hit
// (the one its lookup found), else the latest at all.
export async function cacheFillerRows(
  db: DataSource,
  wanted: readonly { id: string; key: string; at: string | Date }[],
): Promise<(FillerRow & { hit: string; ord: number })[]> {
  return db.query(
    `SELECT k.hit, k.ord, f.id, f.run_id, f.task_id, f.created_at, f.request, f.response
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS k(hit, key, at, ord)
     CROSS JOIN LATERAL (
       SELECT c.id, c.run_id, c.task_id, c.created_at, c.request, c.response FROM llm_calls c
       WHERE c.cache_key = k.key AND c.cache_hit = false AND c.error IS NULL AND c.response IS NOT NULL
       ORDER BY (c.created_at <= k.at) DESC, c.created_at DESC LIMIT 1) f
     ORDER BY k.ord`,
    [wanted.map((w) => w.id), wanted.map((w) => w.key), wanted.map((w) => new Date(w.at).toISOString())],
  );
}
