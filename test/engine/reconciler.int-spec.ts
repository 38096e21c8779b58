import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createNatsBus, NatsBus, NatsNames } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import { Reconciler } from '../../packages/engine/src/runtime/reconciler.js';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  insertTasks,
  RunCoordinator,
  type RunLogger,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const story = resolve(import.meta.dirname, '../../examples/data/the-lighthouse-keeper.md');

// A message removed from its JetStream stream (an operator's purge, a lost write) leaves its task
// queued in the database: the coordinator's reconciler must send it again, or the run never ends.
describe('queue reconciliation on NATS JetStream', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let bus: NatsBus;
  const prefix = `runs-reconcile-${process.pid}-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_reconcile');
    db = await createDataSource({ url: tdb.url });
    bus = await createNatsBus({ servers: natsUrl, prefix, onError: () => undefined });
  });

  afterAll(async () => {
    await bus?.deleteStreams();
    await bus?.close();
    await db?.destroy();
    await tdb?.drop();
  });

  it('re-sends the lost tasks of a stage while another stage cannot even be read', async () => {
    const errors: { msg: string; fields?: Record<string, unknown> }[] = [];
    const logger: RunLogger = { info() {}, warn() {}, error: (msg, fields) => errors.push({ msg, fields }) };
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, logger });
    const spec = validateSpec(builtInFamilies, {
      name: 'reconcile-broken',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [{ name: 'tr', strategy: 'hierarchical', engine: 'lead', params: { chunkSize: 200 } }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
    // One open task on each of two stages, neither on its queue (as if both were lost).
    await insertTasks(db, [
      { id: `${run.id}:lost-summary`, runId: run.id, stage: 'summarize', kind: 'k', payload: {} },
      { id: `${run.id}:lost-verify`, runId: run.id, stage: 'verify', kind: 'k', payload: {} },
    ]);
    await bus.ensureQueue('verify');
    // summarize (checked first) cannot be read: its stream is gone and another one took its subject.
    const jsm = await jetstreamManager(bus.connection);
    const names = new NatsNames(prefix);
    await bus.ensureQueue('summarize');
    await jsm.streams.delete(names.taskStream('summarize'));
    const blocker = `${names.taskStream('summarize')}_BLOCKER`;
    await jsm.streams.add({ name: blocker, subjects: [names.taskSubject('summarize')] });
    try {
      const reconciler = new Reconciler(ctx, bus, 0);
      await reconciler.reconcile([run.id]);
      await reconciler.reconcile([run.id]);
      expect(await bus.pending('verify')).toBe(1);
      expect(errors.map((e) => [e.msg, e.fields?.stage])).toEqual([
        ['cannot reconcile the queue', 'summarize'],
        ['cannot reconcile the queue', 'summarize'],
      ]);
      expect(String(errors[0]?.fields?.error)).toContain('cannot be declared: another stream already stores');
    } finally {
      await jsm.streams.delete(blocker);
      await db.query('DELETE FROM runs WHERE id = $1', [run.id]);
    }
  });

  it('re-sends a task deleted from its stream, and the run completes with every task done once', async () => {
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const logger: RunLogger = {
      info() {},
      warn: (msg, fields) => warnings.push({ msg, fields }),
      error() {},
    };
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, logger });
    const spec = validateSpec(builtInFamilies, {
      name: 'reconcile',
      datasets: [{ name: 'story', kind: 'text', path: story }],
      systems: [
        {
          name: 'hier',
          strategy: 'hierarchical',
          engine: 'lead',
          params: { chunkSize: 200, levelBudgets: [50, 100] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    await bus.ensureQueue('summarize');
    // Queues checked every second (10 s by default): the re-send follows within a few ticks.
    const coordinator = new RunCoordinator(ctx, bus, 200, 1000);
    await coordinator.start();
    const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
    const finished = coordinator.watch(run.id);
    const stream = new NatsNames(prefix).taskStream('summarize');
    const nc = await connect({ servers: natsUrl });
    const jsm = await jetstreamManager(nc);
    // The first chunk summaries are on the stream before any worker runs: delete the first one.
    let first = 0;
    for (let i = 0; i < 100 && first === 0; i++) {
      const info = await jsm.streams.info(stream);
      if (info.state.messages > 0) first = info.state.first_seq;
      else await new Promise((r) => setTimeout(r, 50));
    }
    const deleted = await jsm.streams.getMessage(stream, { seq: first });
    expect(await jsm.streams.deleteMessage(stream, first)).toBe(true);
    await nc.close();

    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 4 }),
      ),
    );
    try {
      const progress = await finished;
      expect(progress.status).toBe('completed');
      expect(progress.error).toBeNull();
      const [t] = await db.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'done')::int AS done,
                max(attempts)::int AS attempts FROM tasks WHERE run_id = $1`,
        [run.id],
      );
      expect(t.done).toBe(t.n);
      expect(t.attempts).toBe(1);
      const resent = warnings.filter((w) => w.msg === 're-sent tasks missing from their queue');
      expect(resent.map((w) => w.fields?.stage)).toContain('summarize');
      expect(deleted?.header?.get('Nats-Msg-Id')).toMatch(new RegExp(`^${run.id}:summarize:hier:`));
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
    }
  }, 60_000);
});
