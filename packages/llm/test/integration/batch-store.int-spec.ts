// Batch mode's durable state on PostgreSQL and PGlite: a call parked once per cache key with
// every task waiting for it, batches taken per endpoint within the file limits (one taker at a
// time), and settlement: answered and failed calls release their tasks, expired ones queue again.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { markSubmitted, parkCall, recordBatchState, takeQueuedCalls } from '../../src/batch/batch.store.js';
import { type SettledCall, settleBatch } from '../../src/batch/batch-settle.store.js';
import { parkedSentRow } from './batch-rows.js';

const EP = 'http://provider.test/v1';
const body = (i: number) => ({ model: 'judge', messages: [{ role: 'user', content: `claim ${i}` }] });
const park = (ds: DataSource, i: number, task = `t${i}`, endpoint = EP) =>
  parkCall(ds, {
    cacheKey: `k${i}`,
    endpoint,
    model: 'judge',
    request: body(i),
    taskId: task,
    runId: null,
    sent: parkedSentRow(`k${i}`, task),
  });
const PARKED = { parked: true };
const LIMITS = { maxRequests: 100, maxBytes: 1e6 };

function batchStoreSuite(
  name: string,
  open: () => Promise<{ ds: DataSource; cleanup: () => Promise<void> }>,
) {
  describe(`batch state (${name})`, () => {
    let ds: DataSource;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ ds, cleanup } = await open());
    }, 60_000);
    afterAll(async () => {
      await ds?.destroy();
      await cleanup?.();
    });

    it('parks a call once per cache key, with one ledger row, and keeps every task that waits for it', async () => {
      expect(await park(ds, 1, 'task-a')).toEqual(PARKED);
      expect(await park(ds, 1, 'task-b')).toEqual(PARKED);
      expect(await park(ds, 1, 'task-a')).toEqual(PARKED);
      const [calls] = await ds.query(`SELECT count(*)::int AS n FROM llm_batch_calls WHERE cache_key = 'k1'`);
      const waiters = await ds.query(
        `SELECT task_id FROM llm_batch_waiters WHERE cache_key = 'k1' ORDER BY task_id`,
      );
      const ledger = await ds.query(
        `SELECT task_id, status, batched, cost_usd::text AS cost FROM llm_calls WHERE cache_key = 'k1'`,
      );
      expect([calls.n, waiters.map((w: { task_id: string }) => w.task_id)]).toEqual([
        1,
        ['task-a', 'task-b'],
      ]);
      expect(ledger).toEqual([{ task_id: 'task-a', status: 'sent', batched: true, cost: '0.0000010000' }]);
    });

    it('takes the oldest queued calls of one endpoint within the request and byte limits', async () => {
      for (const i of [2, 3, 4, 5]) await park(ds, i);
      await park(ds, 90, 't90', 'http://other.test/v1');
      const first = await takeQueuedCalls(ds, EP, { maxRequests: 3, maxBytes: 1e6 });
      expect(first?.calls.map((c) => c.cacheKey)).toEqual(['k1', 'k2', 'k3']);
      expect(first?.calls[1]?.request).toEqual(body(2));
      // One call's line is about 250 bytes here: 600 bytes hold two.
      const second = await takeQueuedCalls(ds, EP, { maxRequests: 100, maxBytes: 600 });
      expect(second?.calls.map((c) => c.cacheKey)).toEqual(['k4', 'k5']);
      expect(await takeQueuedCalls(ds, EP, LIMITS)).toBeNull();
      const [batch] = await ds.query('SELECT status, requests FROM llm_batches WHERE id = $1', [
        first!.batchId,
      ]);
      expect(batch).toEqual({ status: 'preparing', requests: 3 });
      expect(await park(ds, 2, 'task-late')).toEqual(PARKED);
    });

    it('settles a batch: answered and failed calls release their tasks, expired ones queue again', async () => {
      const taken = (await takeQueuedCalls(ds, 'http://other.test/v1', LIMITS))!;
      await markSubmitted(ds, taken.batchId, { batchId: `pb-${name}-1`, fileId: 'file-1' });
      for (const i of [6, 7, 8]) await park(ds, i, `t${i}`, 'http://third.test/v1');
      const batch = (await takeQueuedCalls(ds, 'http://third.test/v1', LIMITS))!;
      await markSubmitted(ds, batch.batchId, { batchId: `pb-${name}-2`, fileId: 'file-2' });
      await recordBatchState(ds, batch.batchId, {
        id: `pb-${name}-2`,
        status: 'expired',
        counts: { total: 3, completed: 1, failed: 2 },
        outputFileId: 'out',
        errorFileId: 'err',
        errors: [],
      });
      const answer = {
        response: { choices: [] },
        tokensIn: 5,
        tokensOut: 2,
        tokensCached: 0,
        tokensReasoning: 0,
        costUsd: '0.0000005000',
        onlineCostUsd: '0.0000010000',
      };
      const results: SettledCall[] = [
        { cacheKey: 'k6', outcome: 'answered', ledger: answer },
        {
          cacheKey: 'k7',
          outcome: 'failed',
          error: 'in batch b: HTTP 400: too long',
          status: 400,
          expired: false,
        },
        { cacheKey: 'k8', outcome: 'requeued' },
        // An outcome naming a call of another batch changes nothing.
        { cacheKey: 'k90', outcome: 'answered', ledger: answer },
      ];
      const settled = await settleBatch(ds, batch.batchId, results);
      expect(settled).toEqual({
        answered: ['k6'],
        failed: ['k7'],
        requeued: ['k8'],
        tasks: [
          { taskId: 't6', runId: null },
          { taskId: 't7', runId: null },
        ],
      });
      const ledger = await ds.query(
        `SELECT cache_key, status, cost_usd::text AS cost, online_cost_usd::text AS online, error, request->'messages'->0->>'content' AS prompt
         FROM llm_calls WHERE cache_key IN ('k6', 'k7', 'k8', 'k90') ORDER BY cache_key`,
      );
      expect(ledger).toEqual([
        {
          cache_key: 'k6',
          status: 'ok',
          cost: '0.0000005000',
          online: '0.0000010000',
          error: null,
          prompt: 'claim 6',
        },
        {
          cache_key: 'k7',
          status: 'error',
          cost: '0.0000000000',
          online: null,
          error: 'in batch b: HTTP 400: too long',
          prompt: 'claim 7',
        },
        {
          cache_key: 'k8',
          status: 'sent',
          cost: '0.0000010000',
          online: null,
          error: null,
          prompt: null,
        },
        {
          cache_key: 'k90',
          status: 'sent',
          cost: '0.0000010000',
          online: null,
          error: null,
          prompt: null,
        },
      ]);
      // The task waiting for the failed call is told once; then the call may be parked again.
      expect(await park(ds, 7, 't7')).toEqual({
        parked: false,
        error: 'in batch b: HTTP 400: too long',
        status: 400,
        expired: false,
      });
      expect(await park(ds, 7, 't7')).toEqual(PARKED);
      const calls = await ds.query(
        `SELECT cache_key, status, error, expirations, batch_id IS NULL AS free FROM llm_batch_calls
         WHERE cache_key IN ('k6', 'k7', 'k8') ORDER BY cache_key`,
      );
      // Answered and failed calls are gone (the answer is in the ledger); k7 was parked again.
      expect(calls).toEqual([
        { cache_key: 'k7', status: 'queued', error: null, expirations: 0, free: true },
        { cache_key: 'k8', status: 'queued', error: null, expirations: 1, free: true },
      ]);
      const [row] = await ds.query(
        'SELECT status, completed, failed, ended_at IS NOT NULL AS ended FROM llm_batches WHERE id = $1',
        [batch.batchId],
      );
      expect(row).toEqual({ status: 'expired', completed: 1, failed: 2, ended: true });
      // Settling again (a second poller, a restart) changes nothing.
      expect(await settleBatch(ds, batch.batchId, results)).toEqual({
        answered: [],
        failed: [],
        requeued: [],
        tasks: [],
      });
      expect(
        (await takeQueuedCalls(ds, 'http://third.test/v1', LIMITS))?.calls.map((c) => c.cacheKey),
      ).toEqual(['k8']);
    });
  });
}

batchStoreSuite('PostgreSQL', async () => {
  const db = await createThrowawayDatabase('precis_llm_batches');
  const ds = await createDataSource({ url: db.url });
  return { ds, cleanup: () => db.drop() };
});

batchStoreSuite('PGlite in memory', async () => {
  const ds = await createDataSource({ inMemory: true });
  return { ds, cleanup: async () => {} };
});

describe('one batch taker per endpoint (PostgreSQL)', () => {
  it('gives nothing to a second taker while the first is taking', async () => {
    const db = await createThrowawayDatabase('precis_llm_batch_lock');
    const ds = await createDataSource({ url: db.url });
    try {
      await park(ds, 1);
      // The first taker's transaction holds the endpoint's lock while the second asks.
      const held = ds.createQueryRunner();
      await held.startTransaction();
      await held.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`precis-batch:${EP}`]);
      expect(await takeQueuedCalls(ds, EP, LIMITS)).toBeNull();
      await held.commitTransaction();
      await held.release();
      expect((await takeQueuedCalls(ds, EP, LIMITS))?.calls.map((c) => c.cacheKey)).toEqual(['k1']);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});
