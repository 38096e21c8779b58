// A NATS outage in the middle of a run: the planner, the stage workers and the task events all
// go through a NATS server that is stopped while tasks are in flight and started again later.
// Completion events published during the outage are lost, messages wait in the stream. The run
// must complete with every task done once: nothing lost, nothing failed, nothing dead.
// PRECIS_NATS_OUTAGE_MS: outage length (default 3 s; the acceptance figure is 30 s).

import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { startThrowawayNats, type ThrowawayNats } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  RunCoordinator,
  runCounts,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const OUTAGE_MS = Number(process.env.PRECIS_NATS_OUTAGE_MS ?? 3_000);
const story = resolve(import.meta.dirname, '../../examples/data/the-lighthouse-keeper.md');

describe('a run across a NATS outage', () => {
  let nats: ThrowawayNats;
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let bus: NatsBus;

  beforeAll(async () => {
    nats = await startThrowawayNats();
    tdb = await createThrowawayDatabase('runs_nats_outage');
    db = await createDataSource({ url: tdb.url });
    bus = await createNatsBus({ servers: nats.url, onError: () => {} });
  });

  afterAll(async () => {
    await bus?.close();
    await db?.destroy();
    await tdb?.drop();
    await nats?.dispose();
  });

  it('completes with every task done once after the server comes back', async () => {
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus });
    const spec = validateSpec(builtInFamilies, {
      name: 'nats-outage',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: ['textrank', 'lead'].map((engine) => ({
        name: `inc-${engine}`,
        strategy: 'incremental',
        engine,
        params: { chunkSize: 60, runningBudget: 80 },
      })),
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic', temperature: 0 }, mode: 'sentence' }],
    });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 2, transientBackoffMs: [50, 200] }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 200, 1000);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
      const finished = coordinator.watch(run.id);
      // Mid-run: some tasks done, more still to plan (incremental steps are sequential).
      for (
        let c = await runCounts(db, run.id);
        (c.tasks.summarize?.done ?? 0) < 4;
        c = await runCounts(db, run.id)
      )
        await new Promise((r) => setTimeout(r, 20));
      await nats.stop();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      await nats.start();
      const progress = await finished;
      expect(progress.status).toBe('completed');
      expect(progress.error).toBeNull();
      const rows: { status: string; n: number; most: number }[] = await db.query(
        `SELECT status, count(*)::int AS n, max(attempts)::int AS most FROM tasks WHERE run_id = $1 GROUP BY status`,
        [run.id],
      );
      expect(rows.map((r) => r.status)).toEqual(['done']);
      // A task redelivered after the outage may be claimed again: never a failure.
      expect(rows[0]!.most).toBeLessThanOrEqual(2);
      expect(progress.summaries).toEqual({ expected: 2, done: 2, failed: 0 });
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
    }
  }, 120_000);
});
