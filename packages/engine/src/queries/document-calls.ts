import type { RunEntity } from '@precis/db';
import { toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import {
  cacheFillerRows,
  countDocumentCalls,
  documentCallRows,
  hasDocumentCall,
} from '../stores/ledger-calls.store.js';
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

// The stored answer each cache hit replayed: per key, the latest answered row made before the hit
// (the one its lookup found), else the latest at all.
async function fillersOf(db: DataSource, hits: LedgerRow[]): Promise<Map<string, FillerRow[]>> {
  const wanted = hits.flatMap((h) =>
    cachedKeys(h.request).map((key) => ({ id: h.id, key, at: h.created_at })),
  );
  if (wanted.length === 0) return new Map();
  const rows = await cacheFillerRows(db, wanted);
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
  const key = { runId: run.id, documentId, system: page.system ?? '' };
  if (page.after && !(await hasDocumentCall(db, key, page.after)))
    throw new CallPageError(
      `no call ${page.after} among this document's calls; start again from the first page`,
    );
  const count = await countDocumentCalls(db, key);
  const rows = await documentCallRows(db, key, page.after ?? null, page.limit + 1);
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
  return { total: toNumber(count), calls, next: more ? (calls.at(-1)?.id ?? null) : null };
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
