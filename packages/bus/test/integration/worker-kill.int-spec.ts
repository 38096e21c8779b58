// Acceptance: a worker killed with SIGKILL mid-task loses nothing. The task is redelivered after
// ack-wait to a second worker process, which persists its result exactly once.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import pg from 'pg';
import { waitFor } from './bus-contract-suite.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const fixture = join(here, '../fixtures/kill-worker.mjs');
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const prefix = `bus-kill-${process.pid}-${randomBytes(3).toString('hex')}`;

describe('worker killed mid-task (SIGKILL)', () => {
  let db: ThrowawayDatabase;
  let client: pg.Client;
  let bus: NatsBus;
  let markers: string;
  const children: ChildProcess[] = [];

  function startWorker(name: string, mode: 'hang' | 'persist-hang' | 'work'): Promise<ChildProcess> {
    const child = spawn(process.execPath, [fixture], {
      env: {
        ...process.env,
        MODE: mode,
        BUS_PREFIX: prefix,
        NATS_URL: natsUrl,
        DATABASE_URL: db.url,
        MARKER_DIR: markers,
        WORKER_NAME: name,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    return new Promise((resolveReady, reject) => {
      child.stdout?.on('data', (b: Buffer) => {
        if (b.toString().includes('ready')) resolveReady(child);
      });
      child.on('exit', (code) => reject(new Error(`worker ${name} exited early (${code}): ${stderr}`)));
    });
  }

  function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (child.exitCode !== null || child.signalCode !== null) {
      return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
    }
    return new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  }

  // On a loaded machine the doomed worker's in-progress beats can come late and the server may
  // redeliver to it before the kill lands: deliveries 1..k then go to the killed worker and
  // k + 1, once, to the next one. Returns k + 1.
  function deliveries(task: string, killed: string, next: string) {
    const seen = readdirSync(markers)
      .map((m) => /^(\w+)-started-(.+)-(\d+)$/.exec(m))
      .filter((m) => m?.[2] === task)
      .map((m) => ({ worker: m![1], count: Number(m![3]) }))
      .sort((a, b) => a.count - b.count)
      .map((d) => `${d.worker}:${d.count}`);
    const before = seen.length - 1;
    expect(seen).toEqual([
      ...Array.from({ length: before }, (_, i) => `${killed}:${i + 1}`),
      `${next}:${before + 1}`,
    ]);
    return before + 1;
  }

  beforeAll(async () => {
    // Worker processes run the built package (cached by turbo when nothing changed).
    const build = spawnSync(
      'npx',
      ['turbo', 'run', 'build', '--filter=@precis/bus', '--output-logs=errors-only'],
      {
        cwd: repoRoot,
        encoding: 'utf8',
      },
    );
    if (build.status !== 0 || !existsSync(join(repoRoot, 'packages/bus/dist/index.js'))) {
      throw new Error(`building @precis/bus failed: ${build.stdout}${build.stderr}`);
    }
    markers = mkdtempSync(join(tmpdir(), 'precis-bus-kill-'));
    db = await createThrowawayDatabase('bus_worker_kill');
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`CREATE TABLE task_results (
      task_id text PRIMARY KEY, run_id text, worker text NOT NULL, delivery_count int NOT NULL,
      result jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    bus = await createNatsBus({ servers: natsUrl, prefix });
    await bus.ensureQueue('verify');
  });

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await bus?.deleteStreams().catch(() => undefined);
    await bus?.close();
    await client?.end();
    await db?.drop();
    if (markers) rmSync(markers, { recursive: true, force: true });
  });

  it('redelivers the task to a second worker, which persists it exactly once', async () => {
    const first = await startWorker('first', 'hang');
    await bus.enqueue('verify', { id: 'task-kill-1', runId: 'run-kill', data: { claim: 'the sky is blue' } });
    await waitFor('the first worker to start the task', () =>
      readdirSync(markers).includes('first-started-task-kill-1-1'),
    );
    first.kill('SIGKILL');
    expect(await exited(first)).toEqual({ code: null, signal: 'SIGKILL' });
    expect((await client.query('SELECT count(*)::int AS n FROM task_results')).rows[0].n).toBe(0);

    const second = await startWorker('second', 'work');
    await waitFor('the result row', async () => {
      const res = await client.query('SELECT count(*)::int AS n FROM task_results');
      return res.rows[0].n > 0;
    });
    await waitFor('the ack', async () => (await bus.pending('verify')) === 0);
    const last = deliveries('task-kill-1', 'first', 'second');

    const rows = (
      await client.query(
        `SELECT task_id, run_id, worker, delivery_count, result FROM task_results WHERE task_id = 'task-kill-1'`,
      )
    ).rows;
    expect(rows).toEqual([
      {
        task_id: 'task-kill-1',
        run_id: 'run-kill',
        worker: 'second',
        delivery_count: last,
        result: { claim: 'the sky is blue' },
      },
    ]);

    second.kill('SIGTERM');
    expect(await exited(second)).toEqual({ code: 0, signal: null });
  });

  it('keeps one result row when the worker dies after persisting but before acking', async () => {
    const third = await startWorker('third', 'persist-hang');
    await bus.enqueue('verify', { id: 'task-kill-2', runId: 'run-kill', data: { claim: 'water is wet' } });
    const countRows = async () =>
      (await client.query(`SELECT count(*)::int AS n FROM task_results WHERE task_id = 'task-kill-2'`))
        .rows[0].n;
    await waitFor('the first result row', async () => (await countRows()) === 1);
    third.kill('SIGKILL');
    await exited(third);

    const fourth = await startWorker('fourth', 'work');
    await waitFor('the redelivery', () =>
      readdirSync(markers).some((m) => m.startsWith('fourth-started-task-kill-2-')),
    );
    await waitFor('the ack', async () => (await bus.pending('verify')) === 0);
    const last = deliveries('task-kill-2', 'third', 'fourth');
    expect(await countRows()).toBe(1);
    const row = (
      await client.query(`SELECT worker, delivery_count FROM task_results WHERE task_id = 'task-kill-2'`)
    ).rows[0];
    expect(row).toEqual({ worker: 'fourth', delivery_count: last });

    fourth.kill('SIGTERM');
    expect(await exited(fourth)).toEqual({ code: 0, signal: null });
  });
});
