// A PostgreSQL outage while run tasks are queued: the stage workers keep receiving them, every
// delivery fails on the database, and none of that uses up a task's attempts. Once the server
// is back every task runs once and the run completes with nothing dead or failed.
// PRECIS_PG_OUTAGE_MS: minimum outage (default 1 s); the outage also lasts until every queued
// task was delivered more often than its attempts allow (the old rule would have killed it).

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { type Bus, type ConsumerHandle, createNatsBus, type NatsBus } from '@precis/bus';
import { createDataSource } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  RunCoordinator,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const OUTAGE_MS = Number(process.env.PRECIS_PG_OUTAGE_MS ?? 1_000);
const MAX_ATTEMPTS = 2;
const STAGES = ['summarize', 'verify', 'score'] as const;
const story = resolve(import.meta.dirname, '../../examples/data/the-lighthouse-keeper.md');

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The real bus, with the highest delivery count seen per task recorded on the way in.
function observed(bus: NatsBus, deliveries: Map<string, number>): Bus {
  return new Proxy(bus, {
    get(target, prop) {
      if (prop === 'consume') {
        const consume: Bus['consume'] = (stage, handler, opts) =>
          target.consume(
            stage,
            (d) => {
              deliveries.set(d.id, Math.max(deliveries.get(d.id) ?? 0, d.deliveryCount));
              return handler(d as Parameters<typeof handler>[0]);
            },
            opts,
          );
        return consume;
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('run stage workers across a PostgreSQL outage', () => {
  let pg: ThrowawayPostgres;
  let db: DataSource;
  let nats: NatsBus;

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    db = await createDataSource({ url: await pg.createDatabase('runs') });
    nats = await createNatsBus({ prefix: `pg-outage-${randomBytes(4).toString('hex')}`, onError: () => {} });
  });
  afterAll(async () => {
    await nats?.deleteStreams();
    await nats?.close();
    await db?.destroy();
    await pg?.dispose();
  });

  it(
    'retries queued tasks without using up their attempts, then completes the run',
    async () => {
      const deliveries = new Map<string, number>();
      const bus = observed(nats, deliveries);
      const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus });
      const spec = validateSpec(builtInFamilies, {
        name: 'pg-outage',
        datasets: [{ name: 'story', kind: 'text', path: story }],
        systems: ['textrank', 'lead'].map((engine) => ({
          name: `hier-${engine}`,
          strategy: 'hierarchical',
          engine,
          params: { chunkSize: 120, levelBudgets: [40, 80] },
        })),
        metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
      });
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
      // The coordinator plans and dispatches the first summarize tasks (nobody consumes them yet),
      // then keeps watching through the outage: its rounds fail and are retried.
      const coordinator = new RunCoordinator(ctx, bus, 200);
      await coordinator.start();
      const finished = coordinator.watch(run.id);
      let queued: string[] = [];
      await until('the first tasks planned', async () => {
        queued = (
          await db.query(`SELECT id FROM tasks WHERE run_id = $1 AND status = 'queued'`, [run.id])
        ).map((r: { id: string }) => r.id);
        return queued.length > 2;
      });
      await pg.stop();
      const outageStarted = Date.now();
      const workers: ConsumerHandle[] = [];
      try {
        for (const stage of STAGES) {
          workers.push(
            await startStageWorker(ctx, bus, stage, {
              concurrency: 4,
              maxDeliver: MAX_ATTEMPTS,
              backoffMs: [20],
              transientBackoffMs: [20, 50, 100],
            }),
          );
        }
        await until('every queued task delivered past its attempt limit', () =>
          queued.every((id) => (deliveries.get(id) ?? 0) > MAX_ATTEMPTS),
        );
        await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - outageStarted))));
        await pg.start();
        const progress = await finished;
        expect(progress.error).toBeNull();
        expect(progress.status).toBe('completed');
      } finally {
        await coordinator.stop();
        for (const w of workers) await w.stop();
      }

      const states: { status: string; n: string }[] = await db.query(
        'SELECT status, count(*) AS n FROM tasks WHERE run_id = $1 GROUP BY status',
        [run.id],
      );
      expect(states.map((s) => s.status)).toEqual(['done']);
      const [counted]: { most: number }[] = await db.query(
        'SELECT max(attempts) AS most FROM tasks WHERE id = ANY($1::text[])',
        [queued],
      );
      // At most the one claim that succeeded (a claim's mark is skipped when the task finished
      // first): the deliveries during the outage were not attempts.
      expect(Number(counted?.most)).toBeLessThanOrEqual(1);
      for (const stage of STAGES) expect(await nats.deadLetters(stage)).toEqual([]);
      const jsm = await jetstreamManager(nats.connection);
      const consumer = await jsm.consumers.info(nats.names.taskStream('summarize'), 'workers');
      expect(consumer.config.max_deliver).toBe(-1);
    },
    OUTAGE_MS + 60_000,
  );
});
