// Kill -9 the summarization process, later a verifier replica and the gateway, in the middle of a
// run (and stop the other verifier gracefully) and start them again: the run completes with exactly the results of an uninterrupted
// (embedded) run, every task is done once, and no model call is asked twice — calls that
// completed before a kill are served from the llm_calls cache when a redelivered task runs again.
//
// How "nothing re-asked" is made exact: each model-calling process talks to its own fake server
// process (same rules, same model id, so the cache is shared). A process is killed at a quiet
// moment right after a completion: it is frozen with SIGSTOP, and SIGKILLed only when its fake
// server has no request in flight and every completed call is in llm_calls; otherwise it is
// resumed (SIGCONT) and tried again a little later. A request in flight at the kill would be
// re-sent after the restart and counted twice by the server; the quiet kill rules that out.
// Needs the build: `npx turbo run build`.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { FakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import type { ServiceProcess } from '../../packages/service/test/support/service-process.js';
import { type Baseline, embeddedBaseline } from './embedded-runs.js';
import {
  bookSpec,
  type Cluster,
  deleteBusStreams,
  judgeRules,
  leaderboardOf,
  registryObject,
  runCounts,
  startCluster,
  startFakeProcess,
  tempDir,
  waitFor,
  writeJson,
} from './runs-support.js';

const LATENCY_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kill -9 of a stage service in the middle of a run', () => {
  const prefix = `e2e_kill_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-runs-kill-');
  const rules = judgeRules();
  const spec = bookSpec({ batchSize: 1 });
  const fakes: Record<'summarization' | 'verifier-1' | 'verifier-2', FakeLlmProcess | undefined> = {
    summarization: undefined,
    'verifier-1': undefined,
    'verifier-2': undefined,
  };
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let cluster: Cluster;
  let runs: RemoteRuns;
  let baseline: Baseline;

  beforeAll(async () => {
    baseline = await embeddedBaseline(spec, rules);
    tdb = await createThrowawayDatabase('e2e_runs_kill');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const rulesFile = writeJson(join(tmp.dir, 'rules.json'), rules);
    const env: Record<string, Record<string, string>> = {};
    for (const id of Object.keys(fakes) as (keyof typeof fakes)[]) {
      const fake = await startFakeProcess(rulesFile, LATENCY_MS);
      fakes[id] = fake;
      const models = writeJson(join(tmp.dir, `models-${id}.json`), registryObject(fake.baseURL));
      // One task at a time per process keeps each stage busy long enough to disrupt it mid-way.
      env[id] = { PRECIS_MODELS: models, WORKER_CONCURRENCY: '1' };
    }
    const modelsFile = join(tmp.dir, 'models-summarization.json');
    cluster = await startCluster({ databaseUrl: tdb.url, prefix, modelsFile, verifiers: 2, env });
    runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
  }, 150_000);

  afterAll(async () => {
    runs?.close();
    await cluster?.stopAll();
    for (const fake of Object.values(fakes)) await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  const stageDone = async (runId: string, stage: string) =>
    Number(
      (
        await db.query(
          `SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = $2 AND status = 'done'`,
          [runId, stage],
        )
      )[0].n,
    );

  // Settled calls; a call's row is written 'sent' before its request and settled when answered.
  const recordedCalls = async (runId: string, stage: string, status = `status <> 'sent'`) =>
    Number(
      (
        await db.query(
          `SELECT COUNT(*) AS n FROM llm_calls WHERE run_id = $1 AND NOT cache_hit AND task_id LIKE $2 AND ${status}`,
          [runId, `%:${stage}:%`],
        )
      )[0].n,
    );

  // Freezes the process right after one of its stage's calls is recorded (a summarize step's call
  // often before its task is stored: a redelivery then replays it from the cache; a judge task's
  // last call is recorded with the task's result), and kills it only when none
  // of its model calls is in flight and every call its stage's servers completed is recorded.
  // Otherwise it resumes the process and waits for the next recorded call. Returns the tries.
  async function quietKill(
    proc: ServiceProcess,
    own: FakeLlmProcess,
    stageFakes: FakeLlmProcess[],
    runId: string,
    stage: string,
  ): Promise<number> {
    let seen = await recordedCalls(runId, stage);
    for (let attempt = 1; attempt <= 100; attempt++) {
      const recorded = await waitFor(
        `a ${stage} call to be recorded`,
        async () => {
          const n = await recordedCalls(runId, stage);
          return n > seen ? n : false;
        },
        30_000,
        2,
      );
      proc.child.kill('SIGSTOP');
      seen = recorded;
      // Let anything already written to a socket or to PostgreSQL land before looking.
      await sleep(60);
      const mine = await own.stats();
      let completed = 0;
      let inFlight = 0;
      for (const f of stageFakes) {
        const stats = await f.stats();
        completed += stats.completedChats;
        inFlight += stats.inFlight;
      }
      // A row 'sent' with no request at a server is a call the frozen process has not sent yet.
      const quiet =
        mine.inFlight === 0 &&
        completed === (await recordedCalls(runId, stage)) &&
        inFlight === (await recordedCalls(runId, stage, `status = 'sent'`));
      if (quiet) {
        proc.child.kill('SIGKILL');
        await proc.exited;
        return attempt;
      }
      proc.child.kill('SIGCONT');
    }
    throw new Error(`${proc.name}: no quiet moment to kill it in 100 tries`);
  }

  it('completes with the uninterrupted results and asks no model call twice', async () => {
    // No two tasks of the uninterrupted run share a prompt, so every cache hit below is a replay.
    expect(baseline.counts.cacheHits).toBe(0);
    // Without the gateway's preflight request, as the baseline: the servers count only run calls.
    const { run } = await runs.createRun(spec, { preflight: false });
    const sumFake = fakes.summarization!;
    const v1Fake = fakes['verifier-1']!;
    const v2Fake = fakes['verifier-2']!;

    // Judging starts at once (the offline system's summary needs no model), so the summarization
    // side and the verifier side are disrupted concurrently, each while its stage has work left.
    const summarizationSide = async () => {
      // Summarization: after some but not all strategy steps are done.
      await waitFor(
        'two summarize tasks done',
        async () => (await stageDone(run.id, 'summarize')) >= 2,
        60_000,
        20,
      );
      const tries = await quietKill(
        cluster.procs.get('summarization')!,
        sumFake,
        [sumFake],
        run.id,
        'summarize',
      );
      const done = await stageDone(run.id, 'summarize');
      await cluster.start('summarization', 'summarization');
      // The gateway: the planner's state is in the database, so a new gateway resumes the run
      // (re-dispatching its unfinished tasks) and the client's channel reconnects.
      const open = Number(
        (
          await db.query(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND status <> 'done'`, [run.id])
        )[0].n,
      );
      await cluster.procs.get('gateway')!.stop('SIGKILL');
      await cluster.start('gateway', 'gateway');
      return { tries, done, openAtGatewayKill: open };
    };
    const verifierSide = async () => {
      // A verifier replica, killed -9 after some judge batches are done.
      await waitFor(
        'two judge batches done',
        async () => (await stageDone(run.id, 'verify')) >= 2,
        60_000,
        20,
      );
      const tries = await quietKill(
        cluster.procs.get('verifier-1')!,
        v1Fake,
        [v1Fake, v2Fake],
        run.id,
        'verify',
      );
      const done = await stageDone(run.id, 'verify');
      await cluster.start('verifier-1', 'verifier');
      // The other replica stopped gracefully: it stops pulling, finishes its batch, acks, exits 0.
      const verifier2 = cluster.procs.get('verifier-2')!;
      const openAtSigterm = (await runCounts(db, run.id)).verifyTasks - (await stageDone(run.id, 'verify'));
      const exit = await verifier2.stop('SIGTERM');
      await cluster.start('verifier-2', 'verifier');
      return { tries, done, openAtSigterm, exit, messages: verifier2.logs.map((l) => l.msg) };
    };
    const [sum, ver] = await Promise.all([summarizationSide(), verifierSide()]);
    expect(sum.done).toBeLessThan(baseline.counts.summarizeTasks);
    expect(ver.done).toBeLessThan(baseline.counts.verifyTasks);
    expect(ver.exit).toEqual({ code: 0, signal: null });
    const stopping = ver.messages.indexOf('stopping: no new tasks, finishing in-flight ones');
    expect(stopping).toBeGreaterThanOrEqual(0);
    expect(ver.messages.indexOf('stopped', stopping)).toBeGreaterThan(stopping);

    const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
    expect(final.error).toBe('');
    expect(remoteRunStatus(final)).toBe('completed');

    // No result duplicated or missing: the same rows as the uninterrupted run, each task done once.
    const counts = await runCounts(db, run.id);
    expect({ ...counts, cacheHits: 0 }).toEqual({ ...baseline.counts, cacheHits: 0 });
    expect(counts.tasksDone).toBe(counts.tasks);
    // Usage included: it counts each call the results used once, replays from the cache or not.
    expect(await leaderboardOf(db, run.id)).toEqual(baseline.leaderboard);

    // Nothing re-asked: the servers answered exactly as many chats as the uninterrupted run needed.
    let completed = 0;
    for (const f of [sumFake, v1Fake, v2Fake]) completed += (await f.stats()).completedChats;
    const attempts: { n: number }[] = await db.query(
      'SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND attempts > 1',
      [run.id],
    );
    process.stderr.write(
      `kill test: summarize kill after ${sum.done}/${baseline.counts.summarizeTasks} steps (${sum.tries} tries), ` +
        `verify kill after ${ver.done}/${baseline.counts.verifyTasks} batches (${ver.tries} tries); ` +
        `completed chats ${completed} (uninterrupted ${baseline.completedChats}); cache hits ${counts.cacheHits}; ` +
        `tasks run more than once ${Number(attempts[0]?.n ?? 0)}; ` +
        `verify batches open at the SIGTERM ${ver.openAtSigterm}; unfinished tasks at the gateway kill ${sum.openAtGatewayKill}\n`,
    );
    expect(completed).toBe(baseline.completedChats);
  }, 150_000);
});
