// One round of an endpoint's batcher: batches a crash left 'preparing' are found at the provider
// (by the id sent as metadata) or sent again, queued calls are sent as a new batch, and open
// batches are polled; those that ended are settled. Any process may run rounds: taking calls is
// locked per endpoint, settling is idempotent, and nothing is sent twice.
import type OpenAI from 'openai';
import type { DataSource } from 'typeorm';
import {
  callsOfBatch,
  markSubmitted,
  queuedCallsOf,
  recordBatchState,
  type TakenBatch,
  takeQueuedCalls,
  unsettledBatches,
} from './batch.store.js';
import { type AnsweredLedger, type SettledCall, type Settlement, settleBatch } from './batch-settle.store.js';
import {
  type BatchEndpoint,
  type BatchFileLimits,
  type BatchLineResult,
  batchInputFiles,
  batchResults,
  ENDED_BATCH_STATUSES,
  isTransientStatus,
  type ProviderBatchState,
  readBatch,
  submitBatch,
} from './provider-batch.js';

export interface BatchRoundOptions {
  db: DataSource;
  openai: OpenAI;
  // The endpoint's key in the batch tables (e.g. its base URL and model).
  endpoint: string;
  url: BatchEndpoint;
  limits: BatchFileLimits;
  // How long a batch may stay 'preparing' before another round takes it as stranded (ms).
  strandedAfterMs?: number;
  // Queued calls are sent once none has arrived for this long (or a file's worth is queued),
  // counted from this process's last send too: building and uploading a large file holds up the
  // parks meanwhile, which is no sign that they have stopped.
  gatherMs: number;
  sentMsAgo?: number;
  // Whether more calls are still on their way (tasks that may park have yet to): the queued calls
  // then wait for them, however quiet, unless a file's worth is queued.
  moreComing?: () => Promise<boolean>;
  // Whether this round polls the open batches (the caller paces polls by the model's pollSeconds).
  poll: boolean;
  // An answer's ledger columns at the batch price; throws when the answer is no usable reply.
  price: (body: unknown) => AnsweredLedger;
  // A call that failed transiently (429, 5xx) goes into the next batch this many times at most;
  // expired calls go into the next batch, or fail as expired (to be sent online) with 'online'.
  maxRetries: number;
  onExpiry: 'batch' | 'online';
}

export interface EndedBatch {
  batchId: string;
  state: ProviderBatchState;
  settled: SettledCall[];
  settlement: Settlement;
}

export interface BatchRound {
  // Provider batch ids sent this round (a stranded batch found at the provider is not sent again).
  submitted: string[];
  ended: EndedBatch[];
}

const METADATA_KEY = 'precis_batch';

export async function batchRound(o: BatchRoundOptions): Promise<BatchRound> {
  const submitted: string[] = [];
  const { stranded } = await unsettledBatches(o.db, o.endpoint, o.strandedAfterMs ?? 60_000);
  for (const b of stranded) {
    const found = await findAtProvider(o.openai, b.id);
    if (found) await markSubmitted(o.db, b.id, found);
    else submitted.push(await send(o, { batchId: b.id, calls: await callsOfBatch(o.db, b.id) }));
  }
  const queued = await queuedCallsOf(o.db, o.endpoint);
  const quietMs = Math.min(queued.quietMs, o.sentMsAgo ?? Number.POSITIVE_INFINITY);
  const full = queued.count >= o.limits.maxRequests;
  if (full || (queued.count > 0 && quietMs >= o.gatherMs && !(await o.moreComing?.()))) {
    for (;;) {
      const taken = await takeQueuedCalls(o.db, o.endpoint, o.limits);
      if (!taken) break;
      submitted.push(await send(o, taken));
    }
  }
  const ended: EndedBatch[] = [];
  if (!o.poll) return { submitted, ended };
  for (const b of (await unsettledBatches(o.db, o.endpoint, 0)).open) {
    const state = await readBatch(o.openai, b.providerBatchId!);
    await recordBatchState(o.db, b.id, state);
    if (!ENDED_BATCH_STATUSES.includes(state.status)) continue;
    const settled = await settledCalls(o, b.id, state);
    ended.push({ batchId: b.id, state, settled, settlement: await settleBatch(o.db, b.id, settled) });
  }
  return { submitted, ended };
}

async function send(o: BatchRoundOptions, taken: TakenBatch): Promise<string> {
  const requests = taken.calls.map((c) => ({ customId: c.cacheKey, body: c.request }));
  const files = batchInputFiles(requests, o.url, o.limits);
  if (files.length !== 1)
    throw new Error(
      `batch ${taken.batchId}: its ${requests.length} calls need ${files.length} files, expected 1`,
    );
  const sent = await submitBatch(o.openai, {
    jsonl: files[0]!,
    endpoint: o.url,
    name: `precis-${taken.batchId}.jsonl`,
    metadata: { [METADATA_KEY]: taken.batchId },
  });
  await markSubmitted(o.db, taken.batchId, sent);
  return sent.batchId;
}

// The provider's batch sent for our batch `id` (newest first, as the provider lists them).
async function findAtProvider(
  openai: OpenAI,
  id: string,
): Promise<{ batchId: string; fileId: string } | null> {
  for await (const b of openai.batches.list({ limit: 100 })) {
    if (b.metadata?.[METADATA_KEY] === id) return { batchId: b.id, fileId: b.input_file_id };
  }
  return null;
}

// Each call's outcome: from the result files of a completed or expired batch (calls they do not
// name are queued again by the settlement); every call failed when the provider refused the input
// file or the batch was cancelled.
async function settledCalls(o: BatchRoundOptions, batchId: string, state: ProviderBatchState) {
  const calls = await callsOfBatch(o.db, batchId);
  if (state.status !== 'completed' && state.status !== 'expired') {
    const error =
      state.status === 'failed'
        ? `the provider refused batch ${state.id}: ${state.errors.join('; ') || 'no reason given'}`
        : `batch ${state.id} was cancelled`;
    return calls.map(
      (c): SettledCall => ({ cacheKey: c.cacheKey, outcome: 'failed', error, status: null, expired: false }),
    );
  }
  const retries = new Map(calls.map((c) => [c.cacheKey, c.expirations]));
  return (await batchResults(o.openai, state)).map((r) =>
    settledCall(o, state.id, r, retries.get(r.customId) ?? 0),
  );
}

function settledCall(o: BatchRoundOptions, batch: string, r: BatchLineResult, retried: number): SettledCall {
  const cacheKey = r.customId;
  if (r.ok) {
    try {
      return { cacheKey, outcome: 'answered', ledger: o.price(r.body) };
    } catch (err) {
      const error = `batch ${batch} answered with no usable reply: ${(err as Error).message}`;
      return { cacheKey, outcome: 'failed', error, status: null, expired: false };
    }
  }
  if (r.expired) {
    if (o.onExpiry === 'batch') return { cacheKey, outcome: 'requeued' };
    return {
      cacheKey,
      outcome: 'failed',
      error: `batch ${batch} expired before answering it`,
      status: null,
      expired: true,
    };
  }
  if (isTransientStatus(r.status) && retried < o.maxRetries) return { cacheKey, outcome: 'requeued' };
  const error = `in batch ${batch}: ${r.status === null ? '' : `HTTP ${r.status}: `}${r.message}`;
  return { cacheKey, outcome: 'failed', error, status: r.status, expired: false };
}
