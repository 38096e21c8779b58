// Batch mode in cluster mode (issue 39): two verifier processes park an Op-I judge sweep's calls,
// the gateway sends them as one batch file, and is killed -9 while the provider works on it; the
// new gateway polls the same batch (nothing uploaded twice) and the run reports what the same
// spec reports embedded.
// Needs the build: `npx turbo run build`.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { builtInFamilies, loadFullRunReport, renderRunReport, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import {
  type Cluster,
  deleteBusStreams,
  repoRoot,
  startCluster,
  tempDir,
  waitFor,
  writeJson,
} from './runs-support.js';

// Resolved: the gateway compares it with INGEST_ROOT, and ../shared may be a symbolic link.
const SUMMEVAL_OP = realpathSync(resolve(repoRoot, '../shared/datasets/summeval-op/summeval-op.jsonl'));
const RULES = resolve(repoRoot, 'examples/fake/opinion.rules.json');
const PRODUCTS = 10;
const CALLS = PRODUCTS * 2 * 7;

const spec = validateSpec(builtInFamilies, {
  name: 'opinion-batch-cluster',
  seed: 7,
  datasets: [{ name: 'reviews', kind: 'summeval-op', path: SUMMEVAL_OP, limit: PRODUCTS }],
  systems: [{ name: 'candidates', source: 'dataset', only: ['gpt-4', 'human-summaries'] }],
  metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' } }],
  limits: { batch: ['verify'] },
});

const registry = (baseURL: string) => ({
  models: {
    judge: {
      baseURL,
      model: 'fake-judge',
      maxConcurrency: 16,
      pricePer1MInput: 1,
      pricePer1MOutput: 2,
      // One file each, embedded and across services: the calls wait for the verify tasks still on
      // their way, so a short gather does not split them on a loaded machine.
      batch: { pollSeconds: 0.2, gatherSeconds: 0.2 },
    },
  },
});

// The report JSON without what differs between any two runs (id, times).
async function reportOf(db: DataSource, runId: string): Promise<string> {
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  const json = JSON.parse(renderRunReport(await loadFullRunReport(builtInFamilies, db, run), 'json'));
  return JSON.stringify({ ...json, run: { ...json.run, id: '', createdAt: '', finishedAt: '' } }, null, 1);
}

describe('batch mode across services', () => {
  const prefix = `e2e_batch_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-batch-cluster-');
  let fake: FakeLlmProcess;
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let cluster: Cluster;
  let runs: RemoteRuns;
  let embedded: { report: string; uploads: number };

  beforeAll(async () => {
    // Each phase of a batch (validating, in progress, finalizing) takes 1.5 s at the fake.
    fake = await spawnFakeLlmProcess(['--capacity', '64', '--rules', RULES, '--batch-delay', '1500']);
    const before = (await fake.stats()).batches.filesUploaded;
    embedded = await embeddedOutcome({
      name: 'batch',
      registry: registry(fake.baseURL),
      spec,
      concurrency: 8,
      batches: true,
      outcome: async (edb, runId) => ({
        report: await reportOf(edb, runId),
        uploads: (await fake.stats()).batches.filesUploaded - before,
      }),
    });
    tdb = await createThrowawayDatabase('e2e_batch_cluster');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const modelsFile = writeJson(join(tmp.dir, 'models.json'), registry(fake.baseURL));
    cluster = await startCluster({
      databaseUrl: tdb.url,
      prefix,
      modelsFile,
      verifiers: 2,
      concurrency: 8,
      // The services read the dataset where the shared datasets are.
      sharedEnv: { INGEST_ROOT: dirname(SUMMEVAL_OP) },
    });
    runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
  }, 180_000);

  afterAll(async () => {
    runs?.close();
    await cluster?.stopAll();
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  it('sends one batch file from two verifiers, survives the gateway killed mid-batch, reports as embedded', async () => {
    expect(embedded.uploads).toBe(1);
    const start = (await fake.stats()).batches;
    const { run } = await runs.createRun(spec, { preflight: false });
    // Both verifiers parked calls: every verify task waits, and the gateway sent them in one file.
    await waitFor(
      'the batch to be created at the provider',
      async () => (await fake.stats()).batches.batchesCreated > start.batchesCreated,
      60_000,
      50,
    );
    // Killed once the batch's provider id is stored (a kill before that is the stranded case).
    await waitFor(
      'the batch id to be stored',
      async () =>
        (await db.query('SELECT 1 FROM llm_batches WHERE provider_batch_id IS NOT NULL')).length > 0,
      30_000,
      20,
    );
    const parkedBy = await db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE run_id = $1 AND stage = 'verify' AND status = 'waiting'`,
      [run.id],
    );
    await cluster.procs.get('gateway')!.stop('SIGKILL');
    const provider = await db.query(`SELECT status, requests FROM llm_batches WHERE ended_at IS NULL`);
    await cluster.start('gateway', 'gateway');
    const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
    expect(remoteRunStatus(final)).toBe('completed');
    const end = (await fake.stats()).batches;
    expect(parkedBy[0].n).toBe(CALLS);
    expect(provider).toEqual([
      { status: expect.stringMatching(/^(validating|in_progress)$/), requests: CALLS },
    ]);
    expect({
      uploads: end.filesUploaded - start.filesUploaded,
      batches: end.batchesCreated - start.batchesCreated,
      answered: end.requestsAnswered - start.requestsAnswered,
    }).toEqual({ uploads: 1, batches: 1, answered: CALLS });
    expect(await reportOf(db, run.id)).toBe(embedded.report);
    // GetRun says what went through batches and what it saved (half of the online price).
    const shown = (await runs.getRun(run.id)).usage?.batch;
    expect(shown).toMatchObject({ calls: CALLS, resent: 0 });
    expect(shown!.savedUsd).toBeCloseTo(shown!.costUsd, 9);
    // REST: the run and the page's view list the batch, answered in full; no task waits.
    const get = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${cluster.procs.get('gateway')!.httpPort}/api/v1${path}`, {
        headers: { authorization: `Bearer ${cluster.access.key}` },
      });
      return (await res.json()) as { batches?: unknown; run?: { batches?: unknown } };
    };
    const batch = {
      id: expect.any(String),
      providerBatchId: expect.stringMatching(/^batch_fake\d+$/),
      status: 'completed',
      requests: CALLS,
      completed: CALLS,
      failed: 0,
      ageSeconds: expect.any(Number),
      ended: true,
    };
    const expected = { waitingTasks: 0, queuedCalls: 0, batches: [batch] };
    expect((await get(`/runs/${run.id}`)).run?.batches).toEqual(expected);
    expect((await get(`/runs/${run.id}/view`)).batches).toEqual(expected);
  }, 180_000);
});
