import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createNatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, generateApiKey } from '@precis/db';
import { freePort } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { cpuOf, cpuOfCommand } from '../process-cpu.js';
import { DATASET, type JobOptions, jobSpec, PRECIS_CLI, registry, repo, scratch } from './job.js';
import {
  childEnv,
  failIfNonZero,
  log,
  serverView,
  startFake,
  timedCommand,
  type VariantResult,
} from './measure.js';
import { precisVariant, type RunPhases, runPhases } from './phases.js';

const NATS_URL = () => process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export interface ClusterOptions {
  verifiers: number;
  // WORKER_CONCURRENCY of each verifier: 512 by default (the embedded run's limits.concurrency).
  workerConcurrency: number;
  // The Node binary of the services and of `precis run --remote`.
  node: string;
}

export interface ClusterResult extends VariantResult {
  phases: RunPhases;
  timeline: string;
  servicesStartMs: number;
}

interface Services {
  grpcAddress: string;
  apiKey: string;
}

type Service = ChildProcess & { service: string };

// Starts a built service and waits for /health/ready; the child is in `procs` from the start, so
// one that never gets ready is stopped too.
async function startService(
  name: string,
  env: Record<string, string>,
  node: string,
  procs: Service[],
): Promise<void> {
  const child = spawn(node, [resolve(repo, 'apps', name, 'dist/main.js')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(Object.assign(child, { service: name }));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${env.HTTP_PORT}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(
        `precis cluster: ${name} did not get ready (exit code ${child.exitCode}); see its stderr above`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Gateway, summarization, scoring and the verifiers as separate processes over one database and
// a NATS prefix of their own (as test/e2e's startCluster), each ready before the run is sent.
async function startServices(
  env: Record<string, string>,
  opts: ClusterOptions,
  procs: Service[],
): Promise<Services> {
  const start = async (name: string, extra: Record<string, string> = {}) =>
    startService(name, { ...env, HTTP_PORT: String(await freePort()), ...extra }, opts.node, procs);
  const grpcPort = await freePort();
  const apiKey = generateApiKey();
  await start('gateway', { PRECIS_API_KEYS: apiKey, GRPC_HOST: '127.0.0.1', GRPC_PORT: String(grpcPort) });
  const worker = { WORKER_CONCURRENCY: String(opts.workerConcurrency) };
  await Promise.all([
    start('summarization'),
    start('scoring'),
    ...Array.from({ length: opts.verifiers }, () => start('verifier', worker)),
  ]);
  return { grpcAddress: `127.0.0.1:${grpcPort}`, apiKey };
}

// CPU seconds by process kind (the services, summed per kind, and the servers they share).
function cpuByKind(procs: readonly Service[]): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const p of procs) if (p.pid) cpu.set(p.service, (cpu.get(p.service) ?? 0) + cpuOf(p.pid));
  for (const name of ['postgres', 'nats-server']) cpu.set(name, cpuOfCommand(name));
  return cpu;
}

// What each kind used between two readings, e.g. "verifier 3.1, postgres 2.0".
function cpuSpent(before: Map<string, number>, after: Map<string, number>): string {
  return [...after].map(([name, s]) => `${name} ${(s - (before.get(name) ?? 0)).toFixed(1)}`).join(', ');
}

async function stopAll(procs: ChildProcess[]): Promise<void> {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise<void>((done) => {
          if (p.exitCode !== null || p.signalCode !== null) return done();
          p.once('exit', () => done());
          p.kill('SIGKILL');
        }),
    ),
  );
}

// The same spec submitted with `precis run --remote` to the services, timed from submission to
// completion (the CLI polls the run once a second, so its wall time rounds up to that).
export async function runCluster(job: JobOptions, opts: ClusterOptions): Promise<ClusterResult> {
  const fake = await startFake(job);
  const dir = scratch('cluster');
  const prefix = `bench_peer_${randomBytes(4).toString('hex')}`;
  const tdb = await createThrowawayDatabase('bench_peer_load');
  const procs: Service[] = [];
  let db: DataSource | undefined;
  try {
    db = await createDataSource({ url: tdb.url, runMigrations: true, poolSize: 2 });
    const env = {
      DATABASE_URL: tdb.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: NATS_URL(),
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      PRECIS_MODELS: dir.write('models.json', registry(fake.baseURL, job.capacity)),
      INGEST_ROOT: realpathSync(dirname(DATASET)),
      LOG_LEVEL: 'warn',
    };
    log(`precis cluster: starting gateway, summarization, scoring, ${opts.verifiers} verifier(s)`);
    const t = performance.now();
    const services = await startServices(env, opts, procs);
    const servicesStartMs = performance.now() - t;
    const spec = dir.write('spec.json', jobSpec(job.products));
    log(`precis cluster: services ready in ${(servicesStartMs / 1000).toFixed(1)} s; precis run --remote`);
    const cpuBefore = cpuByKind(procs);
    const res = await timedCommand(opts.node, [PRECIS_CLI, 'run', spec, '--remote', services.grpcAddress], {
      cwd: dir.dir,
      env: childEnv({ PRECIS_API_KEY: services.apiKey }),
      label: 'precis cluster',
    });
    const cpu = cpuSpent(cpuBefore, cpuByKind(procs));
    failIfNonZero(res, 'precis run --remote (cluster)');
    const server = await serverView(fake, res.startedAt);
    const phases = await runPhases(db);
    const note = `${opts.verifiers} verifier(s) x WORKER_CONCURRENCY ${opts.workerConcurrency}; services started in ${(servicesStartMs / 1000).toFixed(1)} s (not in the wall time)`;
    const cpuNote = `CPU s by process during the command: ${cpu} (the CLI and the fake server apart)`;
    return { ...precisVariant('precis cluster', res, server, phases, [], [note, cpuNote]), servicesStartMs };
  } finally {
    await stopAll(procs);
    await db?.destroy();
    await tdb.drop().catch(() => {});
    const admin = await createNatsBus({ servers: NATS_URL(), prefix });
    await admin.deleteStreams().finally(() => admin.close());
    await fake.close();
    dir.remove();
  }
}
