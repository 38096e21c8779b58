// A stage queue that keeps failing in a process is written to bus_problems for every process to
// see (a run with open tasks on that stage shows it), logged once when it starts and once when it
// clears, and deleted once the queue works again. Real NATS (a stream whose subject another stream
// took) and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { runBlockedBy } from '@precis/engine';
import type { DataSource } from 'typeorm';
import { BusProblemsReporter } from '../../src/health/bus-problems.reporter.js';
import { createServiceLogger } from '../../src/logging/create-logger.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// A stage's counters with `n` tasks open.
const open = (n: number) => ({ total: n, done: 0, failed: 0, cancelled: 0 });

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('bus problems shared through the database', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let bus: NatsBus;
  let reporter: BusProblemsReporter;
  const logs: { level: string; msg: string }[] = [];
  const blocker = () => `${bus.names.taskStream('summarize')}_BLOCKER`;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('int_bus_problems');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    bus = await createNatsBus({
      servers: natsUrl,
      prefix: `svc-problems-${randomBytes(3).toString('hex')}`,
      failingAfterMs: 500,
      onError: () => undefined,
    });
    const logger = createServiceLogger({
      service: 'summarization',
      version: '0.0.0',
      level: 'info',
      destination: { write: (line: string) => void logs.push(JSON.parse(line)) },
    });
    const info = { name: 'summarization', version: '0.0.0', startedAt: new Date() };
    reporter = new BusProblemsReporter(db, bus, info, logger);
  }, 60_000);

  afterAll(async () => {
    await reporter?.onModuleDestroy();
    await (await jetstreamManager(bus.connection)).streams.delete(blocker()).catch(() => undefined);
    await bus?.deleteStreams();
    await bus?.close();
    await db?.destroy();
    await tdb?.drop();
  }, 60_000);

  it('records a failing stage, shows it to runs with open tasks there, and clears it', async () => {
    const got: string[] = [];
    await bus.consume('summarize', async (d) => {
      got.push(d.id);
    });
    await reporter.sync();
    expect(await db.query('SELECT * FROM bus_problems')).toEqual([]);

    const jsm = await jetstreamManager(bus.connection);
    const stream = bus.names.taskStream('summarize');
    await jsm.streams.delete(stream);
    await jsm.streams.add({ name: blocker(), subjects: [bus.names.taskSubject('summarize')] });
    await expect(bus.enqueue('summarize', { id: 't1', data: 1 })).rejects.toThrow(/cannot be declared/);
    await until(
      'both operations to fail for long enough',
      () =>
        bus.problems().filter((p) => p.error.startsWith(`stream ${stream} cannot be declared`)).length === 2,
    );
    const line = bus
      .problems()
      .map((p) => p.summary)
      .join('; ');

    await reporter.sync();
    const rows = await db.query('SELECT reporter, stage, problem FROM bus_problems');
    expect(rows).toEqual([
      { reporter: expect.stringMatching(/^summarization@.+:\d+$/), stage: 'summarize', problem: line },
    ]);
    expect(await runBlockedBy(db, 'running', { summarize: open(2), verify: open(0) })).toBe(line);
    // Only a run something drives now is held up by a queue.
    expect(await runBlockedBy(db, 'interrupted', { summarize: open(2) })).toBe('');
    // A run with nothing open on that stage is not held up by it.
    expect(await runBlockedBy(db, 'running', { summarize: open(0), verify: open(4) })).toBe('');
    const warned = logs.filter((l) => l.level === 'warn').map((l) => l.msg);
    expect(warned.sort()).toEqual(
      bus
        .problems()
        .map((p) => `${p.summary}: not ready until it works again`)
        .sort(),
    );
    // Said once: checking again while it lasts logs nothing new.
    await reporter.sync();
    expect(logs.filter((l) => l.level === 'warn').length).toBe(2);

    await jsm.streams.delete(blocker());
    await until('the consumer to recover', () => bus.problems().every((p) => p.operation !== 'consume'));
    await bus.enqueue('summarize', { id: 't2', data: 2 });
    await until('the task sent after recovery', () => got.includes('t2'));
    expect(bus.problems()).toEqual([]);
    await reporter.sync();
    expect(await db.query('SELECT * FROM bus_problems')).toEqual([]);
    expect(await runBlockedBy(db, 'running', { summarize: open(2) })).toBe('');
    expect(logs.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual(['summarize queue works again']);
  }, 90_000);

  it('ignores a row its process stopped refreshing', async () => {
    await db.query(
      `INSERT INTO bus_problems (reporter, stage, problem, since, seen_at)
       VALUES ('verifier@gone:1', 'verify', 'verify queue (stream X): consuming keeps failing: boom',
               now() - interval '5 minutes', now() - interval '31 seconds')`,
    );
    expect(await runBlockedBy(db, 'running', { verify: open(1) })).toBe('');
    await db.query(`UPDATE bus_problems SET seen_at = now() WHERE reporter = 'verifier@gone:1'`);
    expect(await runBlockedBy(db, 'running', { verify: open(1) })).toBe(
      'verify queue (stream X): consuming keeps failing: boom',
    );
  });
});
