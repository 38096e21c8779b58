// A run whose summarize tasks the bus dead-letters without any handler failure (a worker killed
// on every delivery): the coordinator records them as dead and the run still ends, failed.

import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Bus, createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  RunCoordinator,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const story = resolve(import.meta.dirname, '../../examples/data/the-lighthouse-keeper.md');

describe('a run whose tasks the bus dead-lettered', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_dead_lettered');
    db = await createDataSource({ url: tdb.url });
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  it('records a task the bus dead-lettered without a handler failure as dead, and the run still ends', async () => {
    const spec = validateSpec(builtInFamilies, {
      name: 'hung-worker',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier',
          strategy: 'hierarchical',
          engine: 'textrank',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const bus: Bus = createInProcessBus();
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus });
    // A summarize worker that hangs on every delivery (as one killed each time would): the bus
    // gives up after maxDeliver and dead-letters the tasks without any handler error.
    await bus.ensureQueue('summarize');
    const release: (() => void)[] = [];
    const hung = await bus.consume('summarize', () => new Promise<void>((r) => release.push(r)), {
      ackWaitMs: 150,
      maxDeliver: 2,
      autoHeartbeat: false,
      maxInFlight: 64,
    });
    const others = await Promise.all(
      (['verify', 'score'] as const).map((s) => startStageWorker(ctx, bus, s)),
    );
    const coordinator = new RunCoordinator(ctx, bus, 100);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
      const progress = await coordinator.watch(run.id);
      // Its only unit has no summary: nothing to rank, so the run failed.
      expect(progress.status).toBe('failed');
      expect(progress.error).toMatch(
        /^no summary was produced: 1 of 1 summaries failed; 4 of 4 summarize tasks failed; first failure: summarize:hier:the-lighthouse-keeper\.md:h\/0\/\d: dead-lettered by the bus: not acked after 2 deliveries: ack wait expired each time$/,
      );
      expect(progress.summaries.failed).toBe(1);
      const dead: { error: string }[] = await db.query(
        `SELECT error FROM tasks WHERE run_id = $1 AND status = 'dead'`,
        [run.id],
      );
      expect(dead.length).toBeGreaterThan(0);
      expect(dead[0]!.error).toContain('dead-lettered by the bus');
    } finally {
      await coordinator.stop();
      for (const r of release) r();
      await hung.stop();
      for (const w of others) await w.stop();
      await bus.close();
    }
  });
});
