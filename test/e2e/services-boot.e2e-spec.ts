// Retrieval, summarization, verifier and scoring as separate processes: each boots with validated
// config, reports ready (PostgreSQL + NATS), consumes its stage queue(s), and exits 0 on SIGTERM.
// A task of a kind no loaded family or job runs must end up failed (with an 'unknown task kind'
// error naming the kinds the stage runs) and dead-lettered, never silently dropped.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createNatsBus, type NatsBus } from '@precis/bus';
import { createJsonTask, encodeTask, type Stage } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { builtInFamilies } from '@precis/families';
import type { DataSource } from 'typeorm';
import {
  freePort,
  type ServiceName,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const SERVICES: { name: ServiceName; stages: Stage[] }[] = [
  { name: 'retrieval', stages: ['retrieve'] },
  { name: 'summarization', stages: ['summarize'] },
  { name: 'verifier', stages: ['verify'] },
  { name: 'scoring', stages: ['score', 'aggregate'] },
];

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('stage services without task kinds (separate processes)', () => {
  const prefix = `e2e_boot_${randomBytes(4).toString('hex')}`;
  let db: ThrowawayDatabase;
  let ds: DataSource;
  let bus: NatsBus;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createThrowawayDatabase('e2e_services_boot');
    ds = await createDataSource({ url: db.url, runMigrations: true });
    bus = await createNatsBus({ servers: natsUrl, prefix });
    for (const svc of SERVICES) {
      procs.push(
        startService(repoRoot, svc.name, {
          DATABASE_URL: db.url,
          DATABASE_RUN_MIGRATIONS: 'false',
          NATS_URL: natsUrl,
          PRECIS_BUS_PREFIX: prefix,
          HTTP_HOST: '127.0.0.1',
          HTTP_PORT: String(await freePort()),
          // Dead-letter after two quick deliveries so the test does not wait for real backoffs.
          TASK_MAX_DELIVER: '2',
          TASK_RETRY_DELAYS_MS: '50',
        }),
      );
    }
    await Promise.all(procs.map((p) => waitReady(p)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    await bus?.deleteStreams();
    await bus?.close();
    await ds?.destroy();
    await db?.drop();
  }, 60_000);

  it('each service reports ready, with its queue probed on NATS', async () => {
    for (const [i, svc] of SERVICES.entries()) {
      const res = await fetch(`http://127.0.0.1:${procs[i]!.httpPort}/health/ready`);
      const body = (await res.json()) as { details: Record<string, Record<string, unknown>> };
      expect(res.status).toBe(200);
      expect(body.details.nats).toMatchObject({ status: 'up', queue: svc.stages[0] });
      expect(body.details.database).toMatchObject({ status: 'up' });
    }
  });

  it('records a task of an unknown kind as failed and dead-letters it', async () => {
    const task = createJsonTask({
      taskId: `${prefix}:verify:1`,
      runId: '',
      stage: 'verify',
      kind: 'fact-check-batch',
      payload: { claims: ['x'] },
    });
    await bus.enqueue('verify', { id: task.taskId, data: encodeTask(task) });

    const row = await until('the task row to be failed', async () => {
      const rows: { status: string; error: string | null; kind: string }[] = await ds.query(
        'SELECT status, error, kind FROM tasks WHERE id = $1',
        [task.taskId],
      );
      return rows[0]?.status === 'failed' ? rows[0] : undefined;
    });
    expect(row.kind).toBe('fact-check-batch');
    expect(row.error).toContain('unknown task kind "fact-check-batch" for stage verify');
    const verifyKinds = [...builtInFamilies().taskKinds.values()].filter((k) => k.stage === 'verify');
    expect(row.error).toContain(`this service handles only ${verifyKinds.map((k) => k.kind).join(', ')};`);

    const dead = await until('the dead letter', async () => {
      const letters = await bus.deadLetters('verify');
      return letters.find((l) => l.id === task.taskId);
    });
    expect(dead.error).toContain('unknown task kind');
    expect(dead.deliveryCount).toBe(2);
    expect(await bus.pending('verify')).toBe(0);
  }, 60_000);

  it('exposes task counters on /metrics', async () => {
    const verifier = procs[SERVICES.findIndex((s) => s.name === 'verifier')]!;
    const text = await (await fetch(`http://127.0.0.1:${verifier.httpPort}/metrics`)).text();
    expect(text).toContain(
      'precis_tasks_total{kind="fact-check-batch",outcome="unknown-kind",stage="verify"} 2',
    );
    expect(text).toContain('precis_service_info{service="verifier",version="0.1.0"} 1');
  });

  it('every service exits 0 on SIGTERM after closing its connections', async () => {
    const exits = await Promise.all(procs.map((p) => p.stop('SIGTERM')));
    expect(exits).toEqual(procs.map(() => ({ code: 0, signal: null })));
    for (const p of procs) {
      expect(p.logs.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['bus closed', 'database closed', `${p.name} stopped`]),
      );
    }
  }, 60_000);
});
