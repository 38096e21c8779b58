// KGDS across the services as separate processes (gateway, summarization, verifiers, scoring) on
// NATS + PostgreSQL, against a fake server in this process: the same report as the embedded
// runtime, and an endpoint's maxConcurrency held by four verifier processes together.
// Needs the build: `npx turbo run build` (services run from dist).
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { loadKgdsReport } from '@precis/family-kgds';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { describeProcess } from '../../packages/service/test/support/service-process.js';
import { kgdsRules } from '../engine/kgds-fake.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import {
  type Cluster,
  deleteBusStreams,
  repoRoot,
  startCluster,
  tempDir,
  writeJson,
} from './runs-support.js';

// Named under the gateway's INGEST_ROOT (the datasets directory, symlinks resolved).
const DATASETS = realpathSync(resolve(repoRoot, '../shared/datasets'));
const KGDS = resolve(DATASETS, 'kgds/KGDS.json');

const registry = (baseURL: string, judgeConcurrency: number) => ({
  models: {
    writer: { baseURL, model: 'writer', contextWindow: 16000, maxConcurrency: 8 },
    judge: { baseURL, model: 'judge', contextWindow: 16000, maxConcurrency: judgeConcurrency },
  },
});

const modelSpec = () =>
  validateSpec(builtInFamilies, {
    name: 'kgds-cluster',
    seed: 11,
    datasets: [{ name: 'kgds', kind: 'kgds', path: KGDS, limit: 6 }],
    systems: [
      { name: 'ebs', strategy: 'ebs-aos', model: 'writer' },
      { name: 'ebs-reflect', strategy: 'ebs-aos', model: 'writer', params: { paradigm: 'self-reflection' } },
      { name: 'abs', strategy: 'abs-aos', model: 'writer' },
      { name: 'gold', source: 'gold' },
    ],
    metrics: [{ name: 'kgds', judge: { model: 'judge' } }],
  });

// The rows as reports show them, without what only names the database (none: rows are keyed by
// system and hold the samples' external ids).
async function kgdsRows(db: DataSource, runId: string) {
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  return (await loadKgdsReport(db, run)).rows;
}

const embedded = (fake: FakeLlmServer) =>
  embeddedOutcome({
    name: 'kgds',
    registry: registry(fake.baseURL, 32),
    spec: modelSpec(),
    concurrency: 8,
    outcome: kgdsRows,
  });

describe('KGDS across the services', () => {
  const tmp = tempDir('precis-kgds-cluster-');
  let fake: FakeLlmServer;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer({ latencyMs: 40, capacity: 512, rules: kgdsRules });
  });

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await fake?.close();
    tmp.remove();
  }, 60_000);

  async function cluster(verifiers: number, judgeConcurrency: number, workerConcurrency: number) {
    const prefix = `e2e_kgds_${randomBytes(4).toString('hex')}`;
    const tdb: ThrowawayDatabase = await createThrowawayDatabase('e2e_kgds_cluster');
    const db = await createDataSource({ url: tdb.url, runMigrations: true });
    const modelsFile = writeJson(
      join(tmp.dir, `models-${prefix}.json`),
      registry(fake.baseURL, judgeConcurrency),
    );
    const c: Cluster = await startCluster({
      databaseUrl: tdb.url,
      prefix,
      modelsFile,
      verifiers,
      concurrency: workerConcurrency,
      env: {
        // Up to seven processes on this machine's PostgreSQL (max_connections 100).
        ...Object.fromEntries(
          ['summarization', 'scoring', 'verifier-1', 'verifier-2', 'verifier-3'].map((id) => [
            id,
            { DATABASE_POOL_SIZE: '10' },
          ]),
        ),
        // The one stopped mid-run drains 16 tasks whose calls queue for 32 shared slots: on a
        // loaded machine that took more than the tests' usual 10 s budget (it then exits 1).
        'verifier-4': { DATABASE_POOL_SIZE: '10', SHUTDOWN_TIMEOUT_MS: '60000' },
        gateway: {
          DATABASE_POOL_SIZE: '10',
          INGEST_ROOT: DATASETS,
        },
      },
    });
    const runs = new RemoteRuns(c.grpcAddress, c.access);
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      runs.close();
      await c.stopAll();
      await db.destroy();
      await tdb.drop();
      await deleteBusStreams(prefix);
    };
    stops.push(stop);
    return { db, runs, stop, procs: c.procs };
  }

  it('gives the embedded report with the gateway, two verifiers, summarization and scoring', async () => {
    const expected = await embedded(fake);
    const { db, runs, stop } = await cluster(2, 32, 4);
    const { run } = await runs.createRun(modelSpec());
    const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
    expect(remoteRunStatus(final)).toBe('completed');
    const rows = await kgdsRows(db, run.id);
    expect(rows.map((r) => r.system)).toEqual(['ebs', 'ebs-reflect', 'abs', 'gold']);
    expect(rows).toEqual(expected);
    expect(rows.find((r) => r.system === 'gold')!.kgds?.bsp).toEqual({
      precision: 100,
      recall: 100,
      f1: 100,
    });
    // Its processes' connections are given back before the next cluster starts.
    await stop();
  }, 180_000);

  it('four verifier processes never have more than the judge maxConcurrency (32) open at the server, and one stopping gives its slots back', async () => {
    const { db, runs, procs } = await cluster(4, 32, 16);
    fake.resetStats();
    const spec = validateSpec(builtInFamilies, {
      name: 'kgds-limits',
      datasets: [{ name: 'kgds', kind: 'kgds', path: KGDS }],
      systems: [
        { name: 'gold-ebs', source: 'gold', pattern: 'ebs-aos' },
        { name: 'gold-abs', source: 'gold', pattern: 'abs-aos' },
      ],
      metrics: [{ name: 'kgds', judge: { model: 'judge' } }],
    });
    const { run } = await runs.createRun(spec);
    // One verifier stops mid-run: it finishes its tasks and gives back the slots it kept for
    // its next calls, instead of leaving them held until their leases end.
    while (fake.stats().completedChats < 100) await new Promise((r) => setTimeout(r, 20));
    const leaving = procs.get('verifier-4')!;
    const exit = await leaving.stop('SIGTERM');
    // On a failure the verifier's own last lines say why (a shutdown past its budget, an error).
    expect({ code: exit.code, said: exit.code === 0 ? '' : describeProcess(leaving) }).toEqual({
      code: 0,
      said: '',
    });
    const [held] = await db.query(`SELECT count(*)::int AS n FROM llm_slots WHERE holder LIKE $1`, [
      `${leaving.child.pid}:%`,
    ]);
    expect(held.n).toBe(0);
    const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
    expect(remoteRunStatus(final)).toBe('completed');
    const stats = fake.stats();
    // 4 processes x 16 tasks, each sending one call per paragraph at once: far more than 32 want
    // to be open; the cluster-wide slots hold them to 32.
    expect(stats.completedChats).toBeGreaterThan(500);
    expect(stats.maxInFlight).toBeLessThanOrEqual(32);
    // The limit was pressed: 32 on an idle machine; 23 was seen with a build running beside the
    // tests, so the bound only asks that the cap, not the demand, was what held them.
    expect(stats.maxInFlight).toBeGreaterThan(16);
  }, 180_000);
});
