// One round of an endpoint's batcher: batches a crash left 'preparing' are found at the provider
// (by the id sent as metadata) or sent again, queued calls are sent as a new batch, and open
// batches are polled; those that ended are settled. Any process may run rounds: taking calls is
// locked per endpoint, settling is idempotent, and nothing is sent twice.
import type OpenAI from 'openai';
import type { DataSource } from 'typeorm';
import {
  callsOfBatch,
  markSubmitted,
  recordBatchState,
  type Settlement,
  settleBatch,
  type TakenBatch,
  takeQueuedCalls,
  unsettledBatches,
} from './batch.store.js';
import {
  type BatchEndpoint,
  type BatchFileLimits,
  type BatchLineResult,
  batchInputFiles,
  batchResults,
  ENDED_BATCH_STATUSES,
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
}

export interface EndedBatch {
  batchId: string;
  state: ProviderBatchState;
  results: BatchLineResult[];
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
  for (;;) {
    const taken = await takeQueuedCalls(o.db, o.endpoint, o.limits);
    if (!taken) break;
    submitted.push(await send(o, taken));
  }
  const ended: EndedBatch[] = [];
  for (const b of (await unsettledBatches(o.db, o.endpoint, 0)).open) {
    const state = await readBatch(o.openai, b.providerBatchId!);
    await recordBatchState(o.db, b.id, state);
    if (!ENDED_BATCH_STATUSES.includes(state.status)) continue;
    const results = await endedResults(o, b.id, state);
    ended.push({ batchId: b.id, state, results, settlement: await settleBatch(o.db, b.id, results) });
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

// Each call's outcome: the result files of a completed or expired batch; every call failed when
// the provider refused the input file or the batch was cancelled.
async function endedResults(o: BatchRoundOptions, batchId: string, state: ProviderBatchState) {
  if (state.status === 'completed' || state.status === 'expired') return batchResults(o.openai, state);
  const why =
    state.status === 'failed'
      ? `the provider refused batch ${state.id}: ${state.errors.join('; ') || 'no reason given'}`
      : `batch ${state.id} was cancelled`;
  return (await callsOfBatch(o.db, batchId)).map(
    (c): BatchLineResult => ({ customId: c.cacheKey, ok: false, expired: false, status: null, message: why }),
  );
}
