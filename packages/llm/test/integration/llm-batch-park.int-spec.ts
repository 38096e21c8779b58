// The client's side of batch mode over PostgreSQL and the fake server: in a task's batch scope a
// call to a batch-enabled model parks (its reservation at the batch price, within the run's cost
// limit) instead of going out; once its batch settles, the task's own answer is read as that call
// (no cache-hit row), and a call that failed in its batch fails as it would have online.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { markSubmitted, parkCall, takeQueuedCalls } from '../../src/batch/batch.store.js';
import { CallParkedError, withBatchScope } from '../../src/batch/batch-scope.js';
import { settleBatch } from '../../src/batch/batch-settle.store.js';
import {
  createTypeOrmLlmStore,
  formatCost,
  LimiterRegistry,
  LlmClient,
  LlmHttpError,
  loadModelRegistry,
  PermanentModelError,
} from '../../src/index.js';
import { createRun, MAX_TOKENS, PRICES, question, RESERVE_UNITS } from './cost-limit-helpers.js';

let tdb: ThrowawayDatabase;
let db: DataSource;
let server: FakeLlmServer;
let client: LlmClient;

beforeAll(async () => {
  tdb = await createThrowawayDatabase('precis_llm_batch_park');
  db = await createDataSource({ url: tdb.url });
  server = await startFakeLlmServer({});
  const model = { baseURL: server.baseURL, maxConcurrency: 16, ...PRICES };
  const registry = loadModelRegistry({
    models: {
      judge: { ...model, model: 'fake-judge', batch: { discount: 0.5 } },
      online: { ...model, model: 'fake-online' },
    },
  });
  client = new LlmClient({
    registry,
    store: createTypeOrmLlmStore(db),
    env: {},
    limiters: new LimiterRegistry(),
    parkCall: (call) => parkCall(db, call),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await db?.destroy();
  await tdb?.drop();
});

const ask = (runId: string, i: number, model = 'judge') =>
  client.chat({ model, messages: question(i), maxTokens: MAX_TOKENS, runId, taskId: `${runId}:t${i}` });
const inScope = <T>(runId: string, i: number, work: () => Promise<T>) =>
  withBatchScope({ taskId: `${runId}:t${i}`, runId }, work);

// Settles the endpoint's queued calls as one batch with the given outcomes per call.
async function settleQueued(
  outcome: (key: string, prompt: string) => Parameters<typeof settleBatch>[2][number],
) {
  const taken = (await takeQueuedCalls(db, `${server.baseURL} fake-judge `, {
    maxRequests: 100,
    maxBytes: 1e6,
  }))!;
  await markSubmitted(db, taken.batchId, { batchId: `b-${taken.batchId}`, fileId: 'f' });
  return settleBatch(
    db,
    taken.batchId,
    taken.calls.map((c) =>
      outcome(c.cacheKey, (c.request as { messages: { content: string }[] }).messages[0]!.content),
    ),
  );
}

describe('calls in a batch scope', () => {
  it('park at the batch price: twice as many fit under the run cost limit, nothing goes out', async () => {
    // Room for 5.5 online reservations: 11 at half price.
    const runId = await createRun(db, formatCost((RESERVE_UNITS * 11n) / 2n));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => inScope(runId, i, () => ask(runId, i))),
    );
    const reasons = outcomes.map((o) =>
      o.status === 'rejected' ? (o.reason as Error).constructor.name : 'answered',
    );
    expect(reasons.filter((r) => r === 'CallParkedError')).toHaveLength(11);
    expect(reasons.filter((r) => r === 'CostLimitError')).toHaveLength(5);
    const [ledger] = await db.query(
      `SELECT count(*)::int AS rows, bool_and(batched) AS batched, sum(cost_usd)::text AS cost,
              (SELECT count(*)::int FROM llm_batch_calls) AS parked
       FROM llm_calls WHERE run_id = $1 AND status = 'sent'`,
      [runId],
    );
    expect(ledger).toEqual({
      rows: 11,
      batched: true,
      cost: formatCost((RESERVE_UNITS / 2n) * 11n),
      parked: 11,
    });
    expect(server.stats().total).toBe(0);
    await db.query('DELETE FROM llm_batch_calls');
    await db.query('DELETE FROM llm_batch_waiters');
    // Outside a scope, or to a model without batch settings, a call goes online.
    const free = await createRun(db, null);
    expect((await ask(free, 90)).text).toContain('question 90');
    await expect(inScope(free, 91, () => ask(free, 91, 'online'))).resolves.toMatchObject({ cached: false });
    expect(server.stats().completedChats).toBe(2);
  });

  it("reads the task's own batch answer as its call, without a cache-hit row", async () => {
    const runId = await createRun(db, null);
    await expect(inScope(runId, 1, () => ask(runId, 1))).rejects.toBeInstanceOf(CallParkedError);
    const answer = {
      choices: [
        { index: 0, message: { role: 'assistant', content: 'batched answer' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    };
    const settled = await settleQueued((key) => ({
      cacheKey: key,
      outcome: 'answered',
      ledger: {
        response: answer,
        tokensIn: 9,
        tokensOut: 2,
        tokensCached: 0,
        tokensReasoning: 0,
        costUsd: '0.0000065000',
        onlineCostUsd: '0.0000130000',
      },
    }));
    expect(settled.tasks).toEqual([{ taskId: `${runId}:t1`, runId }]);
    const again = await inScope(runId, 1, () => ask(runId, 1));
    expect([again.text, again.cached]).toEqual(['batched answer', false]);
    // Another task asking the same is a cache hit as usual.
    const other = await client.chat({
      model: 'judge',
      messages: question(1),
      maxTokens: MAX_TOKENS,
      runId,
      taskId: `${runId}:other`,
    });
    expect([other.text, other.cached]).toEqual(['batched answer', true]);
    await client.close();
    const rows = await db.query(
      `SELECT task_id, status, batched, cost_usd::text AS cost FROM llm_calls WHERE run_id = $1 ORDER BY created_at`,
      [runId],
    );
    expect(rows).toEqual([
      { task_id: `${runId}:t1`, status: 'ok', batched: true, cost: '0.0000065000' },
      { task_id: `${runId}:other`, status: 'cached', batched: false, cost: '0.0000000000' },
    ]);
  });

  it('fails a call its batch failed as online: 400 at once, 503 to be retried', async () => {
    const runId = await createRun(db, null);
    for (const i of [2, 3])
      await expect(inScope(runId, i, () => ask(runId, i))).rejects.toBeInstanceOf(CallParkedError);
    await settleQueued((key, prompt) => ({
      cacheKey: key,
      outcome: 'failed',
      error:
        prompt === 'question 02'
          ? 'in batch b: HTTP 400: prompt too long'
          : 'in batch b: HTTP 503: overloaded',
      status: prompt === 'question 02' ? 400 : 503,
      expired: false,
    }));
    const permanent = await inScope(runId, 2, () => ask(runId, 2)).catch((e) => e);
    expect(permanent).toBeInstanceOf(PermanentModelError);
    expect(permanent.message).toContain('prompt too long');
    const transient = await inScope(runId, 3, () => ask(runId, 3)).catch((e) => e);
    expect(transient).toBeInstanceOf(LlmHttpError);
    expect([transient.status, transient.retryable, transient.message]).toEqual([
      503,
      true,
      'model "judge" failed in batch b: HTTP 503: overloaded',
    ]);
    // Told once: run again, the call parks for the next batch.
    await expect(inScope(runId, 3, () => ask(runId, 3))).rejects.toBeInstanceOf(CallParkedError);
  });

  it('sends online a call its batch let expire, with onExpiry online', async () => {
    const runId = await createRun(db, null);
    await expect(inScope(runId, 4, () => ask(runId, 4))).rejects.toBeInstanceOf(CallParkedError);
    await settleQueued((key) => ({
      cacheKey: key,
      outcome: 'failed',
      error: 'batch b expired before answering it',
      status: null,
      expired: true,
    }));
    const online = server.stats().completedChats;
    const answer = await inScope(runId, 4, () => ask(runId, 4));
    expect([answer.text.includes('question 04'), answer.cached]).toEqual([true, false]);
    expect(server.stats().completedChats).toBe(online + 1);
    const rows = await db.query(
      `SELECT status, batched, error FROM llm_calls WHERE run_id = $1 ORDER BY created_at`,
      [runId],
    );
    // The parked row settles as the expiry, at no cost; the online call is a row of its own.
    expect(rows).toEqual([
      { status: 'error', batched: true, error: 'batch b expired before answering it' },
      { status: 'ok', batched: false, error: null },
    ]);
  });
});
