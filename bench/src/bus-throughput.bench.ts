// Tasks per second through publish -> consume -> persist a result row in PostgreSQL -> ack, for
// the JetStream bus and the in-process bus. Results are written in batched multi-row upserts keyed
// by task id; a batch is acked only after its transaction committed. Uses a throwaway database
// and a prefixed set of streams, both removed at the end.
import { randomBytes } from 'node:crypto';
import {
  type Bus,
  createInProcessBus,
  createNatsBus,
  type Delivery,
  type NatsBus,
  type WorkMessage,
} from '@precis/bus';
import pg from 'pg';

interface Options {
  tasks: number;
  batch: number;
  batches: number;
  impls: ('nats' | 'in-process')[];
  timeoutMs: number;
}

function parseArgs(args: string[]): Options {
  const opts: Options = {
    tasks: 50_000,
    batch: 500,
    batches: 4,
    impls: ['nats', 'in-process'],
    timeoutMs: 180_000,
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    const num = () => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new Error(`bus-throughput: ${flag} needs a positive integer`);
      i++;
      return n;
    };
    if (flag === '--tasks') opts.tasks = Math.min(num(), 1_000_000);
    else if (flag === '--batch') opts.batch = num();
    else if (flag === '--batches') opts.batches = num();
    else if (flag === '--impl') {
      if (value !== 'nats' && value !== 'in-process')
        throw new Error('bus-throughput: --impl is nats or in-process');
      opts.impls = [value];
      i++;
    }
  }
  return opts;
}

const adminUrl = () => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdmin(fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

function tasks(n: number, runId: string, offset = 0): WorkMessage[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${runId}-${offset + i}`,
    runId,
    data: { claim: `claim number ${offset + i} of the benchmark`, index: offset + i },
  }));
}

/** Writes a batch of results in one transaction-wrapped multi-row upsert (idempotent by task id). */
async function persist(pool: pg.Pool, batch: Delivery[]): Promise<void> {
  await pool.query(
    `INSERT INTO bench_results (task_id, run_id, result)
     SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])
     ON CONFLICT (task_id) DO UPDATE SET result = EXCLUDED.result`,
    [batch.map((d) => d.id), batch.map((d) => d.runId ?? null), batch.map((d) => JSON.stringify(d.data))],
  );
}

async function until(what: string, deadline: number, cond: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`bus-throughput: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function measure(bus: Bus, pool: pg.Pool, opts: Options): Promise<Record<string, number>> {
  const deadline = Date.now() + opts.timeoutMs;
  const consumeOpts = { maxBatch: opts.batch, maxInFlightBatches: opts.batches, maxWaitMs: 10 };
  let done = 0;
  const handler = async (batch: Delivery[]) => {
    await persist(pool, batch);
    done += batch.length;
  };

  // 1. Publish into an idle queue (each publish acked by the store).
  const runA = `a${randomBytes(3).toString('hex')}`;
  let t0 = performance.now();
  await bus.enqueueMany('verify', tasks(opts.tasks, runA));
  const publishSecs = (performance.now() - t0) / 1000;

  // 2. Drain the preloaded queue: consume -> persist -> ack.
  t0 = performance.now();
  let handle = await bus.consumeBatch('verify', handler, consumeOpts);
  await until('the preloaded queue to drain', deadline, () => done >= opts.tasks);
  const drainSecs = (performance.now() - t0) / 1000;
  await handle.stop();

  // 3. End to end: publishing and consuming at the same time.
  done = 0;
  const runB = `b${randomBytes(3).toString('hex')}`;
  handle = await bus.consumeBatch('verify', handler, consumeOpts);
  t0 = performance.now();
  await bus.enqueueMany('verify', tasks(opts.tasks, runB));
  const e2ePublishSecs = (performance.now() - t0) / 1000;
  await until('end-to-end processing', deadline, () => done >= opts.tasks);
  const e2eSecs = (performance.now() - t0) / 1000;
  await handle.stop();

  // 4. One task per handler call, one upsert each: what batching saves.
  done = 0;
  const single = Math.max(1, Math.floor(opts.tasks / 5));
  const runC = `c${randomBytes(3).toString('hex')}`;
  await bus.enqueueMany('verify', tasks(single, runC));
  t0 = performance.now();
  handle = await bus.consume(
    'verify',
    async (d) => {
      await persist(pool, [d]);
      done++;
    },
    { maxInFlight: 32 },
  );
  await until('single-task processing', deadline, () => done >= single);
  const singleSecs = (performance.now() - t0) / 1000;
  await handle.stop();

  await until('the queue to empty (acks applied)', deadline, async () => (await bus.pending('verify')) === 0);
  const rows = Number((await pool.query('SELECT count(*) AS n FROM bench_results')).rows[0].n);
  if (rows !== 2 * opts.tasks + single) {
    throw new Error(`bus-throughput: expected ${2 * opts.tasks + single} result rows, found ${rows}`);
  }
  const rate = (n: number, secs: number) => Math.round(n / secs);
  return {
    publish_tasks_per_s: rate(opts.tasks, publishSecs),
    consume_persist_ack_tasks_per_s: rate(opts.tasks, drainSecs),
    end_to_end_tasks_per_s: rate(opts.tasks, e2eSecs),
    end_to_end_publish_tasks_per_s: rate(opts.tasks, e2ePublishSecs),
    single_handler_tasks_per_s: rate(single, singleSecs),
    dead_letters: (await bus.deadLetters('verify')).length,
  };
}

export async function run(args: string[]): Promise<{
  name: string;
  description: string;
  metrics: Record<string, number | string>;
}> {
  const opts = parseArgs(args);
  const metrics: Record<string, number | string> = {
    tasks: opts.tasks,
    batch: opts.batch,
    batches_in_flight: opts.batches,
  };
  for (const impl of opts.impls) {
    const dbName = `bus_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${dbName}"`));
    const url = new URL(adminUrl());
    url.pathname = `/${dbName}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: opts.batches + 2 });
    // An idle client dropped by the server must not crash the benchmark; the pool replaces it.
    pool.on('error', () => undefined);
    let bus: Bus | undefined;
    try {
      await pool.query(
        'CREATE TABLE bench_results (task_id text PRIMARY KEY, run_id text, result jsonb NOT NULL, done_at timestamptz NOT NULL DEFAULT now())',
      );
      bus =
        impl === 'nats'
          ? await createNatsBus({ prefix: `bench-${process.pid}-${randomBytes(3).toString('hex')}` })
          : createInProcessBus();
      const key = impl === 'nats' ? 'nats' : 'inproc';
      for (const [k, v] of Object.entries(await measure(bus, pool, opts))) metrics[`${key}_${k}`] = v;
    } finally {
      if (bus?.kind === 'nats') await (bus as NatsBus).deleteStreams().catch(() => undefined);
      await bus?.close();
      await pool.end();
      await withAdmin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      });
    }
  }
  return {
    name: 'bus-throughput',
    description:
      `Tasks/s through publish -> consume -> persist (PostgreSQL multi-row upsert per batch of ${opts.batch}) -> ack, ` +
      `${opts.tasks} tasks per phase; single_handler = one upsert per task (32 in flight)`,
    metrics,
  };
}
