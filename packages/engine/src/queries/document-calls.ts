import type { RunEntity } from '@precis/db';
import { toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import {
  cachedKeys,
  type FillerRow,
  type LedgerCallView,
  type LedgerRow,
  toCallView,
} from './ledger-call-view.js';

export class CallPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallPageError';
  }
}

export interface CallPage {
  // Calls of the document (of the system, when one was asked for) in all pages.
  total: number;
  calls: LedgerCallView[];
  // The id of the page's last call when more follow (pass as `after`), else null.
  next: string | null;
}

// The run's calls of one document: task ids are `<run>:<stage>:<system>:<document id>:...`
// ($2 the document id, $3 the system or ''). By system, then in the order they were made.
const DOCUMENT_CALLS = `FROM llm_calls c
  WHERE c.run_id = $1 AND c.task_id IS NOT NULL AND split_part(c.task_id, ':', 4) = $2
    AND ($3 = '' OR split_part(c.task_id, ':', 3) = $3)`;
// Calls written in one batch share their created_at: the task id then keeps planned steps in order.
const KEY = `(split_part(c.task_id, ':', 3), c.created_at, c.task_id, c.id)`;
const ORDER = `split_part(c.task_id, ':', 3), c.created_at, c.task_id, c.id`;

// The stored answer each cache hit replayed: per key, the latest answered row made before the hit
// (the one its lookup found), else the latest at all.
async function fillersOf(db: DataSource, hits: LedgerRow[]): Promise<Map<string, FillerRow[]>> {
  const wanted = hits.flatMap((h) =>
    cachedKeys(h.request).map((key) => ({ id: h.id, key, at: h.created_at })),
  );
  if (wanted.length === 0) return new Map();
  const rows: (FillerRow & { hit: string; ord: number })[] = await db.query(
    `SELECT k.hit, k.ord, f.id, f.run_id, f.task_id, f.created_at, f.request, f.response
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS k(hit, key, at, ord)
     CROSS JOIN LATERAL (
       SELECT c.id, c.run_id, c.task_id, c.created_at, c.request, c.response FROM llm_calls c
       WHERE c.cache_key = k.key AND c.cache_hit = false AND c.error IS NULL AND c.response IS NOT NULL
       ORDER BY (c.created_at <= k.at) DESC, c.created_at DESC LIMIT 1) f
     ORDER BY k.ord`,
    [wanted.map((w) => w.id), wanted.map((w) => w.key), wanted.map((w) => new Date(w.at).toISOString())],
  );
  const out = new Map<string, FillerRow[]>();
  for (const r of rows) out.set(r.hit, [...(out.get(r.hit) ?? []), r]);
  return out;
}

// One page of the model calls behind a document's summaries and judgments in a run, with their
// prompts and raw replies (a cache hit shows the call that filled its entry).
export async function documentCalls(
  db: DataSource,
  run: RunEntity,
  documentId: string,
  // maxChars: a page ends before its calls' JSON passes this many characters (one call at least),
  // so it stays under a message limit whatever the prompts' lengths.
  page: { system?: string; after?: string | null; limit: number; maxChars?: number },
): Promise<CallPage> {
  const system = page.system ?? '';
  const params: unknown[] = [run.id, documentId, system];
  let after = '';
  if (page.after) {
    const found = await db.query(`SELECT 1 ${DOCUMENT_CALLS} AND c.id::text = $4`, [...params, page.after]);
    if (found.length === 0)
      throw new CallPageError(
        `no call ${page.after} among this document's calls; start again from the first page`,
      );
    after = `AND ${KEY} > (SELECT split_part(p.task_id, ':', 3), p.created_at, p.task_id, p.id FROM llm_calls p WHERE p.id::text = $5)`;
  }
  const [count] = await db.query(`SELECT count(*) AS n ${DOCUMENT_CALLS}`, params);
  const rows: LedgerRow[] = await db.query(
    `SELECT c.id, c.run_id, c.task_id, c.model, c.model_id, c.kind, c.status, c.cache_hit, c.calls,
            c.template_version, c.created_at, c.latency_ms, c.attempts, c.error, c.notes, c.tokens_in,
            c.tokens_cached, c.tokens_out, c.tokens_reasoning, c.cost_usd, c.list_cost_usd, c.request,
            c.response
     ${DOCUMENT_CALLS} ${after} ORDER BY ${ORDER} LIMIT $4`,
    [...params, page.limit + 1, ...(page.after ? [page.after] : [])],
  );
  const shown = rows.slice(0, page.limit);
  const fillers = await fillersOf(
    db,
    shown.filter((r) => r.cache_hit),
  );
  const calls = callsWithin(
    shown.map((r) => toCallView(r, fillers.get(r.id) ?? [])),
    page.maxChars ?? Number.POSITIVE_INFINITY,
  );
  const more = calls.length < shown.length || rows.length > page.limit;
  return { total: toNumber(count.n), calls, next: more ? (calls.at(-1)?.id ?? null) : null };
}

// The first calls whose JSON fits in `maxChars` (the first one whatever its size).
export function callsWithin(calls: LedgerCallView[], maxChars: number): LedgerCallView[] {
  let used = 0;
  const out: LedgerCallView[] = [];
  for (const c of calls) {
    used += JSON.stringify(c).length;
    if (out.length > 0 && used > maxChars) break;
    out.push(c);
  }
  return out;
}

// Every call of the document (what `runs show --trace --calls` prints), page by page.
export async function allDocumentCalls(
  db: DataSource,
  run: RunEntity,
  documentId: string,
): Promise<LedgerCallView[]> {
  const out: LedgerCallView[] = [];
  let after: string | null = null;
  do {
    const page: CallPage = await documentCalls(db, run, documentId, { after, limit: 100 });
    out.push(...page.calls);
    after = page.next;
  } while (after);
  return out;
}
