import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { CostLimitError, createTypeOrmLlmStore, formatCost } from '../../src/index.js';
import {
  createRun,
  ledgerOf,
  MAX_TOKENS,
  PRICES,
  question,
  RESERVE_TOKENS_IN,
  RESERVE_UNITS,
} from './cost-limit-helpers.js';
import { setup } from './helpers.js';

// A worker SIGKILLed with calls in flight: each call's row was written 'sent' before its request,
// so the ledger and the run's committed cost still count them, at their reserved cost.
// The child runs the built packages: needs `npx turbo run build`.
const CHILD = fileURLToPath(new URL('./fixtures/calls-in-flight.mjs', import.meta.url));

describe('calls in flight when their worker is SIGKILLed', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let slow: FakeLlmServer;

  beforeAll(async () => {
    db = await createThrowawayDatabase('precis_llm_sent');
    ds = await createDataSource({ url: db.url });
    slow = await startFakeLlmServer();
  }, 60_000);

  afterAll(async () => {
    await slow?.close();
    await ds?.destroy();
    await db?.drop();
  });

  it('are in llm_calls as sent, at their reserved cost, and count against the run limit', async () => {
    const count = 6;
    // Every request stays unanswered until the server closes.
    slow.injectFault({ kind: 'hang' }, count);
    // Room for the 6 calls in flight and one more, not two (a call settles at ~1/4 of its reserve).
    const limit = formatCost(RESERVE_UNITS * 7n + RESERVE_UNITS / 10n);
    const runId = await createRun(ds, limit);
    const child = spawn(process.execPath, [CHILD, db.url, slow.baseURL, runId, String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<string | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    while (slow.stats().inFlight < count) {
      if (child.exitCode !== null) throw new Error(`child exited early: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const reserved = formatCost(RESERVE_UNITS * BigInt(count));
    expect(await ledgerOf(ds, runId)).toEqual({
      rows: count,
      cost: reserved,
      sent: count,
      committed: reserved,
    });
    const rows = await ds.query(
      `SELECT DISTINCT status, tokens_in, cost_usd::text AS cost, attempts, response IS NULL AS no_response
         FROM llm_calls WHERE run_id = $1`,
      [runId],
    );
    expect(rows).toEqual([
      {
        status: 'sent',
        tokens_in: RESERVE_TOKENS_IN,
        cost: formatCost(RESERVE_UNITS),
        attempts: 0,
        no_response: true,
      },
    ]);
    const store = createTypeOrmLlmStore(ds);
    expect(await store.totals({ runId })).toMatchObject({ calls: count, sent: count, costUsd: reserved });

    // What they reserved stays committed: one more call fits under the limit, a second does not.
    const { server, client } = await setup({}, PRICES, store);
    try {
      await client.chat({ model: 'chat', messages: question(50), maxTokens: MAX_TOKENS, runId });
      const err = await client
        .chat({ model: 'chat', messages: question(51), maxTokens: MAX_TOKENS, runId })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CostLimitError);
      expect(server.stats().completedChats).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);
});
