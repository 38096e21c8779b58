// The embedded runs the cluster end-to-end tests compare the services' results with: the same
// spec run in one process (in-process bus, planner and workers) over a throwaway database.

import { randomBytes } from 'node:crypto';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, type ParkedCall, parkCall } from '@precis/llm';
import { parseRules, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  type BenchmarkSpec,
  builtInFamilies,
  createRun,
  createRunContext,
  executeRun,
  type LeaderboardRow,
} from '../support/precis.js';
import { leaderboardOf, type RunCounts, registryObject, runCounts } from './runs-support.js';

export interface Baseline {
  leaderboard: LeaderboardRow[];
  counts: RunCounts;
  completedChats: number;
}

// The spec run embedded against an in-process fake server with `rules` and no faults: what
// `outcome` reads (`completedChats`: what the fake answered so far).
export async function embeddedWithFake<T>(opts: {
  name: string;
  spec: BenchmarkSpec;
  rules: unknown[];
  registry: (baseURL: string) => Parameters<typeof loadModelRegistry>[0];
  outcome: (db: DataSource, runId: string, completedChats: () => number) => Promise<T>;
}): Promise<T> {
  const fake = await startFakeLlmServer({ latencyMs: 1, capacity: 64, rules: parseRules(opts.rules) });
  try {
    return await embeddedOutcome({
      name: opts.name,
      registry: opts.registry(fake.baseURL),
      spec: opts.spec,
      concurrency: 4,
      outcome: (db, runId) => opts.outcome(db, runId, () => fake.stats().completedChats),
    });
  } finally {
    await fake.close();
  }
}

// The same spec run embedded (in-process bus, planner and workers) against a second throwaway
// database and an in-process fake server with the same rules: the reference results.
export function embeddedBaseline(spec: BenchmarkSpec, rules: unknown[]): Promise<Baseline> {
  return embeddedWithFake({
    name: 'runs',
    spec,
    rules,
    registry: registryObject,
    outcome: async (db, runId, completedChats) => ({
      leaderboard: await leaderboardOf(db, runId),
      counts: await runCounts(db, runId),
      completedChats: completedChats(),
    }),
  });
}

// A spec run embedded to its end (in-process bus, a throwaway database, the registry's models):
// what `outcome` reads from it, for the same spec run by the services to be compared with.
export async function embeddedOutcome<T>(opts: {
  name: string;
  registry: Parameters<typeof loadModelRegistry>[0];
  spec: BenchmarkSpec;
  concurrency: number;
  // Send the calls of the spec's limits.batch stages through the provider's Batch API.
  batches?: boolean;
  outcome: (db: DataSource, runId: string) => Promise<T>;
}): Promise<T> {
  const tdb = await createThrowawayDatabase(`e2e_${opts.name}_embedded_${randomBytes(3).toString('hex')}`);
  const db = await createDataSource({ url: tdb.url });
  const bus = createInProcessBus();
  try {
    const reg = loadModelRegistry(opts.registry);
    const chat = new LlmClient({
      registry: reg,
      env: {},
      store: createTypeOrmLlmStore(db),
      ...(opts.batches ? { parkCall: (call: ParkedCall) => parkCall(db, call) } : {}),
    });
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, chat, registry: reg });
    const { run } = await createRun(ctx, { spec: opts.spec, file: 'spec', text: '' }, { fresh: true });
    const done = await executeRun(ctx, bus, run.id, {
      concurrency: opts.concurrency,
      ...(opts.batches ? { batchProviders: chat } : {}),
    });
    if (done.interrupted || done.progress.status !== 'completed')
      throw new Error(
        `the embedded ${opts.name} run ended ${done.interrupted ? 'interrupted' : done.progress.status}`,
      );
    return await opts.outcome(db, run.id);
  } finally {
    await bus.close();
    await db.destroy();
    await tdb.drop();
  }
}
