// A book benchmark submitted over gRPC to the gateway runs across the services as separate
// processes (summarization, two verifier replicas, scoring) over NATS + PostgreSQL, against the
// fake LLM server in its own process, and produces the same leaderboard as the embedded runtime.
// Needs the build: `npx turbo run build` (services and packages/testing run from dist).

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { credentials, Metadata } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RunServiceClient, RunStatus } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { FakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { type Baseline, embeddedBaseline } from './embedded-runs.js';
import {
  bookSpec,
  type Cluster,
  deleteBusStreams,
  finishedTasks,
  judgeRules,
  leaderboardOf,
  registryObject,
  repoRoot,
  runCounts,
  startCluster,
  startFakeProcess,
  tempDir,
  writeJson,
} from './runs-support.js';

describe('a book benchmark across the services matches the embedded run', () => {
  const prefix = `e2e_runs_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-runs-cluster-');
  const rules = judgeRules();
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmProcess;
  let cluster: Cluster;
  let runs: RemoteRuns;
  let baseline: Baseline;

  beforeAll(async () => {
    baseline = await embeddedBaseline(bookSpec(), rules);
    tdb = await createThrowawayDatabase('e2e_runs_cluster');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    fake = await startFakeProcess(writeJson(join(tmp.dir, 'rules.json'), rules), 20);
    const modelsFile = writeJson(join(tmp.dir, 'models.json'), registryObject(fake.baseURL));
    cluster = await startCluster({ databaseUrl: tdb.url, prefix, modelsFile, verifiers: 2 });
    runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
  }, 150_000);

  afterAll(async () => {
    runs?.close();
    await cluster?.stopAll();
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  it('runs to completion with both verifiers sharing the verify queue', async () => {
    const { run, resumed } = await runs.createRun(bookSpec());
    expect(resumed).toBe(false);
    const lines: string[] = [];
    const { run: final } = await followRemoteRun(runs, run.id, {
      pollMs: 250,
      onProgress: (line) => lines.push(line),
    });
    expect(final.error).toBe('');
    expect(remoteRunStatus(final)).toBe('completed');
    // Progress was reported per stage while the run advanced, ending with every task done.
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toMatch(/^completed — summarize (\d+)\/\1, verify (\d+)\/\2, score 1\/1 — \$/);

    const leaderboard = await leaderboardOf(db, run.id);
    expect(leaderboard.map((r) => r.system)).toEqual(['hier-fake', 'hier-textrank', 'inc-fake']);
    // Same scores, CIs, lengths, trigram shares, error types, calls, tokens and cost as embedded.
    expect(leaderboard).toEqual(baseline.leaderboard);
    for (const row of leaderboard) {
      expect(row.score).not.toBeNull();
      expect(row.ci95).not.toBeNull();
      expect(row.judgeUsage.calls).toBeGreaterThan(0);
    }
    const counts = await runCounts(db, run.id);
    expect(counts).toEqual(baseline.counts);
    expect(counts.tasksDone).toBe(counts.tasks);
    // And the gateway's preflight: one request to the spec's one endpoint + model, before any task.
    expect((await fake.stats()).completedChats).toBe(baseline.completedChats + 1);

    // Each process counts the run tasks it finished: both verifier replicas took a share.
    const v1 = await finishedTasks(cluster.procs.get('verifier-1')!, 'verify');
    const v2 = await finishedTasks(cluster.procs.get('verifier-2')!, 'verify');
    expect(v1).toBeGreaterThan(0);
    expect(v2).toBeGreaterThan(0);
    const verifyTasks = Number(
      (await db.query(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'verify'`, [run.id]))[0]
        .n,
    );
    expect(v1 + v2).toBe(verifyTasks);
    expect(await finishedTasks(cluster.procs.get('summarization')!, 'summarize')).toBe(
      Number(
        (
          await db.query(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'summarize'`, [
            run.id,
          ])
        )[0].n,
      ),
    );
    expect(await finishedTasks(cluster.procs.get('scoring')!, 'score')).toBe(1);

    // GetRun reports per-stage counts and the spend; ListRuns and CancelRun answer for it.
    const got = await runs.getRun(run.id.slice(0, 8));
    expect(got.id).toBe(run.id);
    expect(got.taskCounts['score.done']).toBe(1);
    expect(got.taskCounts.done).toBe(counts.tasks);
    const cost = leaderboard.reduce((s, r) => s + r.summarizerUsage.costUsd + r.judgeUsage.costUsd, 0);
    expect(got.costUsd).toBeCloseTo(cost, 9);
  }, 120_000);

  it('rejects an invalid spec with the path of every problem, and cancels a run', async () => {
    const bad = {
      ...bookSpec(),
      systems: [{ name: 'x', strategy: 'hierarchical', engine: 'textrank', params: { chunkSize: 'big' } }],
    };
    await expect(runs.createRun(bad as never)).rejects.toThrow(/systems\[0\]\.params\.chunkSize/);
    const missing = { ...bookSpec(), datasets: [{ name: 'nope', kind: 'text', path: '/no/such/file.md' }] };
    await expect(runs.createRun(missing as never)).rejects.toThrow(/no\/such\/file\.md/);

    // Uncached, so its model calls keep it open long enough to be cancelled (with the first
    // run's cache it could finish before the cancel). Cancelled at once, while the planner may
    // still be inserting its first tasks: none may be left open.
    const { run } = await runs.createRun(
      { ...bookSpec(), name: 'to-cancel', seed: 99, cache: false },
      { fresh: true },
    );
    const cancelled = await runs.cancelRun(run.id, 'changed my mind');
    expect(remoteRunStatus(cancelled)).toBe('cancelled');
    expect(cancelled.error).toBe('changed my mind (by API key env-key-1)');
    const after = await followRemoteRun(runs, run.id, { pollMs: 100 });
    expect(remoteRunStatus(after.run)).toBe('cancelled');
    const open = await db.query(
      `SELECT COUNT(*)::int AS n FROM tasks WHERE run_id = $1 AND status NOT IN ('done', 'failed', 'dead', 'cancelled')`,
      [run.id],
    );
    expect(open[0].n).toBe(0);

    const listed = await runs.listRuns();
    expect(listed[0]?.id).toBe(run.id);
    expect((await runs.listRuns({ status: RunStatus.RUN_STATUS_CANCELLED })).map((r) => r.id)).toEqual([
      run.id,
    ]);
    expect((await runs.listRuns({ limit: 1 })).length).toBe(1);
  }, 60_000);

  it('accepts a YAML spec whose relative paths resolve against the precis-spec-dir metadata', async () => {
    const client = new RunServiceClient(cluster.grpcAddress, credentials.createInsecure());
    const yaml = [
      'name: yaml-spec',
      'datasets:',
      '  - { name: lighthouse-yaml, kind: text, path: data/the-lighthouse-keeper.md }',
      'systems:',
      '  - { name: tr, strategy: hierarchical, engine: textrank, params: { chunkSize: 200 } }',
      'metrics:',
      '  - { name: booookscore, judge: { engine: heuristic } }',
    ].join('\n');
    const call = (dir: string) =>
      new Promise<{ run?: { id: string; name: string } }>((ok, fail) => {
        const md = new Metadata();
        md.set('authorization', `Bearer ${cluster.access.key}`);
        md.set('precis-spec-dir', dir);
        client.createRun({ specYaml: yaml, fresh: true, skipPreflight: false }, md, (err, res) =>
          err ? fail(err) : ok(res),
        );
      });
    try {
      await expect(call('/nowhere')).rejects.toThrow(/\/nowhere\/data\/the-lighthouse-keeper\.md/);
      const res = await call(join(repoRoot, 'examples'));
      expect(res.run?.name).toBe('yaml-spec');
      const { run } = await followRemoteRun(runs, res.run!.id, { pollMs: 200 });
      expect(remoteRunStatus(run)).toBe('completed');
    } finally {
      client.close();
    }
  }, 60_000);
});
