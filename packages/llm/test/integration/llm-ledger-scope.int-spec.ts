import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createDataSource,
  createThrowawayDatabase,
  databaseStatements,
  type ThrowawayDatabase,
} from '@precis/db';
import type { FakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { createTypeOrmLlmStore, type LlmClient, withLedgerScope } from '../../src/index.js';
import { createRun, MAX_TOKENS, question } from './cost-limit-helpers.js';
import { setup } from './helpers.js';

// In a task's ledger scope the row that settles a call waits for the task's next statement: the
// next call's 'sent' row, or (engine) the task's finish; what is still held when the work ends is
// written before the scope returns, also when the work failed.
describe('ledger records held in a task scope', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let server: FakeLlmServer;
  let client: LlmClient;
  let runId: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase('precis_llm_scope');
    ds = await createDataSource({ url: db.url });
    ({ server, client } = await setup({}, {}, createTypeOrmLlmStore(ds)));
    runId = await createRun(ds, null);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await ds?.destroy();
    await db?.drop();
  });

  const ask = (taskId: string, i: number) =>
    client.chat({ model: 'chat', messages: question(i), maxTokens: MAX_TOKENS, runId, taskId });
  const statuses = async (taskId: string) =>
    (
      await ds.query(
        `SELECT status, response IS NOT NULL AS answered FROM llm_calls WHERE task_id = $1
          ORDER BY created_at, id`,
        [taskId],
      )
    ).map((r: { status: string; answered: boolean }) => `${r.status}${r.answered ? '+answer' : ''}`);

  it("settles a call with the next call's 'sent' row, and the last one as the scope ends", async () => {
    const seen: string[][] = [];
    await withLedgerScope('task-a', async () => {
      await ask('task-a', 1);
      seen.push(await statuses('task-a'));
      await ask('task-a', 2);
      seen.push(await statuses('task-a'));
    });
    expect(seen).toEqual([['sent'], ['ok+answer', 'sent']]);
    expect(await statuses('task-a')).toEqual(['ok+answer', 'ok+answer']);
  });

  // Each call also looks its answer up in the cache first (one statement).
  it('writes two calls in three statements instead of four', async () => {
    const before = databaseStatements();
    await withLedgerScope('task-b', async () => {
      await ask('task-b', 3);
      await ask('task-b', 4);
    });
    expect(databaseStatements() - before).toBe(2 + 3);
    const outside = databaseStatements();
    await ask('task-c', 5);
    await ask('task-c', 6);
    expect(databaseStatements() - outside).toBe(2 + 4);
  });

  it('writes what it holds when the work fails, and the call is then a cache hit', async () => {
    const failing = withLedgerScope('task-d', async () => {
      await ask('task-d', 7);
      throw new Error('reply could not be parsed');
    });
    await expect(failing).rejects.toThrow('reply could not be parsed');
    expect(await statuses('task-d')).toEqual(['ok+answer']);
    const calls = server.stats().completedChats;
    const again = await ask('task-d', 7);
    expect(again.cached).toBe(true);
    expect(server.stats().completedChats).toBe(calls);
  });

  // Promise.all rejects at the first failure while the other calls still run: their records
  // arrive after the scope ended and are written on their own.
  it('writes a call that settles after its scope ended on its own', async () => {
    server.setLatency(300);
    let slow: Promise<unknown> = Promise.resolve();
    const failing = withLedgerScope('task-e', async () => {
      slow = ask('task-e', 8);
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('another call of the task failed');
    });
    await expect(failing).rejects.toThrow('another call of the task failed');
    expect(await statuses('task-e')).toEqual(['sent']);
    await slow;
    server.setLatency(0);
    expect(await statuses('task-e')).toEqual(['ok+answer']);
  });
});
