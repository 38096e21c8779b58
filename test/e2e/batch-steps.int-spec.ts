// Batch mode with multi-step strategies (issue 39): hierarchical merging and incremental updating
// send their summarize calls through batches too (limits.batch [summarize, verify]), one batch
// round per step, and the run ends with the leaderboard the same spec gets online.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, parseRules, startFakeLlmServer } from '@precis/testing';
import { validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import { bookSpec, judgeRules, leaderboardOf, registryObject } from './runs-support.js';

// The cluster tests' registry, with the Batch API or without.
const registry = (baseURL: string, batch: boolean) => {
  const model = registryObject(baseURL).models['fake-model'];
  return {
    models: { 'fake-model': batch ? { ...model, batch: { pollSeconds: 0.05, gatherSeconds: 0.2 } } : model },
  };
};

describe('batch mode: multi-step strategies', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 64,
      rules: parseRules(judgeRules()),
      batches: { delayMs: 10 },
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('goes through one batch round per step and ranks as online', async () => {
    const online = await embeddedOutcome({
      name: 'steps_online',
      registry: registry(fake.baseURL, false),
      spec: bookSpec(),
      concurrency: 8,
      outcome: leaderboardOf,
    });
    const before = fake.stats();
    const spec = validateSpec((await import('../support/precis.js')).builtInFamilies, {
      ...bookSpec(),
      limits: { ...bookSpec().limits, batch: ['summarize', 'verify'] },
    });
    const batched = await embeddedOutcome({
      name: 'steps_batch',
      registry: registry(fake.baseURL, true),
      spec,
      concurrency: 8,
      batches: true,
      outcome: leaderboardOf,
    });
    const after = fake.stats();
    // The same leaderboard, its costs at the batch price (half).
    const costs = (x: unknown, factor: number) =>
      JSON.parse(JSON.stringify(x), (k, v) => (k === 'costUsd' ? Math.round(v * factor * 1e9) : v));
    expect(costs(batched, 1)).toEqual(costs(online, 0.5));
    // No call online; the summarize steps (chunk summaries, merges, incremental updates) and the
    // judge batches each waited for a round of their own.
    expect((after.byPath['/v1/chat/completions'] ?? 0) - (before.byPath['/v1/chat/completions'] ?? 0)).toBe(
      0,
    );
    expect(after.batches.batchesCreated - before.batches.batchesCreated).toBeGreaterThanOrEqual(4);
    expect(after.batches.requestsAnswered - before.batches.requestsAnswered).toBe(
      after.completedChats - before.completedChats,
    );
  }, 180_000);
});
