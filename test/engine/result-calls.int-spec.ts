// What a leaderboard's cost counts (the calls the results used, each once, at the model's prices)
// against what the run paid (every ledger row): a task's replay from the cache after a kill and a
// call asked again after a model error leave the first unchanged and show in the second.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { createTypeOrmLlmStore, LimiterRegistry, LlmClient, loadModelRegistry } from '@precis/llm';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { systemCosts, usageSoFar } from '../support/precis.js';

const RUN = '33333333-3333-4333-8333-333333333333';
const task = (system: string) => `${RUN}:summarize:${system}:doc-1:0`;
const ask = (content: string) => [{ role: 'user' as const, content }];

describe('result calls and the run spend', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let server: FakeLlmServer;
  let client: LlmClient;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('result_calls');
    db = await createDataSource({ url: tdb.url });
    server = await startFakeLlmServer({ latencyMs: 1, reply: 'four token reply here' });
    const registry = loadModelRegistry({
      models: {
        chat: {
          baseURL: server.baseURL,
          model: 'fake-chat',
          pricePer1MInput: '1000',
          pricePer1MOutput: '2000',
          maxRetries: 0,
        },
      },
    });
    client = new LlmClient({
      registry,
      env: {},
      store: createTypeOrmLlmStore(db),
      limiters: new LimiterRegistry(),
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await db?.destroy();
    await tdb?.drop();
  });

  it('counts each result call once at list price, and every repeat in the spend', async () => {
    const call = (system: string, prompt: string) =>
      client.chat({ model: 'chat', messages: ask(prompt), runId: RUN, taskId: task(system) });
    const first = await call('a', 'the shared prompt');
    // Task a replayed after a kill: the same call answered from the cache.
    expect((await call('a', 'the shared prompt')).cached).toBe(true);
    // Another system asks the same prompt: a cache hit that costs it the list price all the same.
    expect((await call('b', 'the shared prompt')).cached).toBe(true);
    // System c's call fails once (a 500, no retry left), then the task asks again.
    server.injectFault({ kind: 'server-error' }, 1);
    await expect(call('c', 'its own prompt')).rejects.toThrow(/500/);
    const own = await call('c', 'its own prompt');

    const price = (r: typeof first) => Number(r.costUsd);
    expect(price(first)).toBeGreaterThan(0);
    expect(await systemCosts(db, RUN)).toEqual({ a: price(first), b: price(first), c: price(own) });
    const spend = await usageSoFar(db, RUN);
    expect(spend).toMatchObject({ calls: 5, cacheHits: 2, repeated: 2 });
    expect(spend.costUsd).toBeCloseTo(price(first) + price(own), 10);
  });
});
