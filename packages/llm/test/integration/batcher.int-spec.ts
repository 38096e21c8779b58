// Batcher rounds over PostgreSQL against the fake server's Batch API through the openai client:
// parked calls go out in one batch and come back settled; a batch a crash left 'preparing' is
// found at the provider (nothing uploaded twice) or sent again; expired calls go out again; a
// batch the provider refuses fails its calls with the provider's reason.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import OpenAI from 'openai';
import type { DataSource } from 'typeorm';
import { parkCall, takeQueuedCalls } from '../../src/batch/batch.store.js';
import { type BatchRound, type BatchRoundOptions, batchRound } from '../../src/batch/batcher.js';
import { batchAnswerPricer } from '../../src/batch/price-answer.js';
import { batchInputFiles, submitBatch } from '../../src/batch/provider-batch.js';
import { formatCost } from '../../src/cost.js';
import { parseModelRegistryText } from '../../src/registry/load-model-registry.js';
import { parkedSentRow } from './batch-rows.js';

let tdb: ThrowawayDatabase;
let db: DataSource;
const servers: FakeLlmServer[] = [];
beforeAll(async () => {
  tdb = await createThrowawayDatabase('precis_llm_batcher');
  db = await createDataSource({ url: tdb.url });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await tdb?.drop();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const LIMITS = { maxRequests: 50, maxBytes: 1e6 };
const SPEC = parseModelRegistryText(
  'models: { judge: { baseURL: http://x/v1, model: judge, pricePer1MInput: 1, pricePer1MOutput: 2, batch: {} } }',
  'm.yaml',
).get('judge');
let endpointSeq = 0;

async function setup(batches: { expireShare?: number; maxRequests?: number } = {}) {
  const server = await startFakeLlmServer({ batches });
  servers.push(server);
  const openai = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
  const endpoint = `fake-${++endpointSeq}`;
  // One after another: calls go into a batch in the order they were parked.
  const park = async (keys: string[]) => {
    for (const k of keys)
      await parkCall(db, {
        cacheKey: `${endpoint}:${k}`,
        endpoint,
        model: 'judge',
        request: { model: 'judge', messages: [{ role: 'user', content: k }] },
        taskId: `task-${k}`,
        runId: null,
        sent: parkedSentRow(`${endpoint}:${k}`, `task-${k}`),
      });
  };
  const round = (more: Partial<BatchRoundOptions> = {}) =>
    batchRound({
      db,
      openai,
      endpoint,
      url: '/v1/chat/completions',
      limits: LIMITS,
      strandedAfterMs: 0,
      gatherMs: 0,
      poll: true,
      price: batchAnswerPricer(SPEC),
      maxRetries: 2,
      onExpiry: 'batch',
      ...more,
    });
  // Rounds until one settles a batch (the fake runs a batch's phases on timers).
  const untilSettled = async (): Promise<{ rounds: BatchRound[]; last: BatchRound }> => {
    const rounds: BatchRound[] = [];
    for (;;) {
      const r = await round();
      rounds.push(r);
      if (r.ended.length > 0) return { rounds, last: r };
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  return { server, openai, endpoint, park, round, untilSettled };
}

describe('batcher rounds', () => {
  it('sends parked calls in one batch and settles every call with its answer', async () => {
    const { server, park, untilSettled, endpoint } = await setup();
    await park(['a', 'b', 'c']);
    const { rounds, last } = await untilSettled();
    expect(rounds.flatMap((r) => r.submitted)).toHaveLength(1);
    const [ended] = last.ended;
    expect(ended!.state.status).toBe('completed');
    expect(ended!.settlement.answered.sort()).toEqual(['a', 'b', 'c'].map((k) => `${endpoint}:${k}`));
    expect(ended!.settlement.tasks.map((t) => t.taskId)).toEqual(['task-a', 'task-b', 'task-c']);
    const answers = ended!.settled.map(
      (r) =>
        r.outcome === 'answered' &&
        (r.ledger.response as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    );
    expect(answers.sort()).toEqual(['echo: a', 'echo: b', 'echo: c']);
    expect(server.stats().batches).toMatchObject({ filesUploaded: 1, batchesCreated: 1 });
    // Each call's ledger row (written 'sent' with its park) is now its answer at half price.
    const rows = await db.query(
      `SELECT status, batched, tokens_in, tokens_out, cost_usd::text AS cost, list_cost_usd::text AS list,
              online_cost_usd::text AS online,
              request->'messages'->0->>'content' AS prompt, response->'choices'->0->'message'->>'content' AS answer
       FROM llm_calls WHERE cache_key LIKE $1 ORDER BY cache_key`,
      [`${endpoint}:%`],
    );
    const usage = ended!.settled.map((c) => (c.outcome === 'answered' ? c.ledger : null))[0]!;
    expect(rows[0]).toEqual({
      status: 'ok',
      batched: true,
      tokens_in: usage.tokensIn,
      tokens_out: usage.tokensOut,
      cost: usage.costUsd,
      list: usage.costUsd,
      online: usage.onlineCostUsd,
      prompt: 'a',
      answer: 'echo: a',
    });
    // $1 and $2 per 1M tokens, half of it paid.
    const listUnits = BigInt(usage.tokensIn) * 10_000n + BigInt(usage.tokensOut) * 20_000n;
    expect([usage.onlineCostUsd, usage.costUsd]).toEqual([formatCost(listUnits), formatCost(listUnits / 2n)]);
  });

  it('holds quiet calls while more are coming, and sends a full file regardless', async () => {
    const { server, park, round } = await setup();
    const asked: number[] = [];
    const coming = (answer: boolean) => async () => {
      asked.push(Number(answer));
      return answer;
    };
    await park(['h1', 'h2']);
    expect((await round({ moreComing: coming(true) })).submitted).toEqual([]);
    expect(server.stats().batches.filesUploaded).toBe(0);
    // A file's worth goes without asking whether more are coming.
    await park(Array.from({ length: 48 }, (_, i) => `f${i}`));
    expect((await round({ moreComing: coming(true) })).submitted).toHaveLength(1);
    expect(asked).toEqual([1]);
    await park(['h3']);
    expect((await round({ moreComing: coming(false) })).submitted).toHaveLength(1);
    expect(server.stats().batches).toMatchObject({ filesUploaded: 2, batchesCreated: 2 });
  });

  it('finds a batch a crash left preparing at the provider instead of sending it again', async () => {
    const { server, openai, park, untilSettled, endpoint } = await setup();
    await park(['x', 'y']);
    // The process took the calls and the provider accepted the batch; then it died.
    const taken = (await takeQueuedCalls(db, endpoint, LIMITS))!;
    const [jsonl] = batchInputFiles(
      taken.calls.map((c) => ({ customId: c.cacheKey, body: c.request })),
      '/v1/chat/completions',
      LIMITS,
    );
    await submitBatch(openai, {
      jsonl: jsonl!,
      endpoint: '/v1/chat/completions',
      name: 'x.jsonl',
      metadata: { precis_batch: taken.batchId },
    });
    const { rounds, last } = await untilSettled();
    expect(rounds.flatMap((r) => r.submitted)).toEqual([]);
    expect(last.ended[0]!.settlement.answered).toHaveLength(2);
    expect(server.stats().batches.filesUploaded).toBe(1);
  });

  it('sends a batch again when the crash came before the provider had it', async () => {
    const { server, park, untilSettled, endpoint } = await setup();
    await park(['p']);
    await takeQueuedCalls(db, endpoint, LIMITS);
    const { rounds, last } = await untilSettled();
    expect(rounds.flatMap((r) => r.submitted)).toHaveLength(1);
    expect(last.ended[0]!.settlement.answered).toEqual([`${endpoint}:p`]);
    expect(server.stats().batches.filesUploaded).toBe(1);
  });

  it('sends expired calls again in the next batch', async () => {
    const { server, park, untilSettled, endpoint } = await setup({ expireShare: 0.5 });
    await park(['e1', 'e2', 'e3', 'e4']);
    const first = await untilSettled();
    expect(first.last.ended[0]!.state.status).toBe('expired');
    expect(first.last.ended[0]!.settlement.requeued).toEqual([`${endpoint}:e2`, `${endpoint}:e4`]);
    server.setBatchOptions({ expireShare: 0 });
    const second = await untilSettled();
    expect(second.last.ended[0]!.settlement.answered.sort()).toEqual([`${endpoint}:e2`, `${endpoint}:e4`]);
    expect(server.stats().batches).toMatchObject({
      batchesCreated: 2,
      requestsExpired: 2,
      requestsAnswered: 4,
    });
  });

  it("fails every call of a batch the provider refuses, with the provider's reason", async () => {
    const { park, untilSettled } = await setup({ maxRequests: 1 });
    await park(['r1', 'r2']);
    const { last } = await untilSettled();
    const [ended] = last.ended;
    expect(ended!.state.status).toBe('failed');
    expect(ended!.settlement.failed).toHaveLength(2);
    expect(ended!.settlement.tasks.map((t) => t.taskId)).toEqual(['task-r1', 'task-r2']);
    expect(ended!.settled[0]).toMatchObject({
      outcome: 'failed',
      expired: false,
      error: expect.stringMatching(
        /^the provider refused batch batch_fake\d+: too_many_requests: The input file holds 2 requests; at most 1 are allowed\.$/,
      ),
    });
  });
});
