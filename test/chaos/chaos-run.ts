// One chaos run: the cluster as separate processes on a PostgreSQL and a NATS server of its own
// runs a model-backed leaderboard against the fake model (which answers some requests with a
// 429, a 500 or nothing at all) while processes are killed and both servers restarted; then the
// outcome is set beside the same spec run embedded with no fault at all.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createDataSource, RunEntity } from '@precis/db';
import {
  spawnFakeLlmProcess,
  startThrowawayNats,
  startThrowawayPostgres,
  type ThrowawayNats,
  type ThrowawayPostgres,
} from '@precis/testing';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { embeddedWithFake } from '../e2e/embedded-runs.js';
import {
  type Cluster,
  judgeRules,
  type RunCounts,
  runCounts,
  startCluster,
  writeJson,
} from '../e2e/runs-support.js';
import { builtInFamilies, loadFullRunReport, reportJson, usageSoFar } from '../support/precis.js';
import { applyChaos, type ChaosEvent } from './chaos-faults.js';
import { type ChaosPlan, chaosRegistry, chaosSpec, writeChapters } from './chaos-workload.js';

export interface ChaosOutcome {
  plan: ChaosPlan;
  events: ChaosEvent[];
  // Times the follower found the gateway unreachable (killed, or its database or bus down).
  gatewayOutages: number;
  wallMs: number;
  // The JSON reports without the run's id and timestamps.
  report: Record<string, unknown>;
  baselineReport: Record<string, unknown>;
  counts: RunCounts;
  baselineCounts: RunCounts;
  // Tasks, summaries, judgments and metric values the fault-free run has and this one lacks,
  // and those this one has beyond it.
  lost: number;
  duplicated: number;
  // Tasks that ran more than once (a kill, an outage or a model error interrupted them).
  tasksRunAgain: number;
  // Chats the fake server answered (200) for the run, and what the fault-free run needed.
  completedChats: number;
  baselineChats: number;
  // Requests answered with a fault, by kind (rate-limit, server-error, hang).
  faults: Record<string, number>;
  // Calls asked again by the same task because of the faults (`precis runs show`'s figure).
  repeatedCalls: number;
}

const RULES = judgeRules();

// What a report says that no two runs share.
export function comparable(report: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, createdAt: _c, finishedAt: _f, ...run } = report.run as Record<string, unknown>;
  return { ...report, run };
}

export async function reportOf(db: DataSource, runId: string): Promise<Record<string, unknown>> {
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  return comparable(reportJson(await loadFullRunReport(builtInFamilies, db, run)));
}

// The same spec embedded against an in-process fake with the same rules and no faults.
function baseline(spec: ReturnType<typeof chaosSpec>) {
  return embeddedWithFake({
    name: 'chaos',
    spec,
    rules: RULES,
    registry: chaosRegistry,
    outcome: async (db, runId, completedChats) => ({
      report: await reportOf(db, runId),
      counts: await runCounts(db, runId),
      chats: completedChats(),
    }),
  });
}

async function runQuery(db: DataSource, sql: string, runId: string): Promise<number> {
  return Number((await db.query(sql, [runId]))[0].n);
}

interface Servers {
  pg: ThrowawayPostgres;
  nats: ThrowawayNats;
  db: DataSource;
  url: string;
}

async function startServers(): Promise<Servers> {
  const pg = await startThrowawayPostgres();
  const nats = await startThrowawayNats();
  const url = await pg.createDatabase('chaos');
  const db = await createDataSource({ url, runMigrations: true });
  return { pg, nats, db, url };
}

export async function runChaos(
  plan: ChaosPlan,
  dir: string,
  log: (line: string) => void,
): Promise<ChaosOutcome> {
  const spec = chaosSpec(writeChapters(dir, plan));
  const base = await baseline(spec);
  log(`fault-free run: ${base.counts.tasks} tasks, ${base.chats} model calls`);
  const servers = await startServers();
  const rulesFile = writeJson(join(dir, 'rules.json'), RULES);
  const fake = await spawnFakeLlmProcess([
    ...['--latency', String(plan.latencyMs), '--capacity', '64', '--rules', rulesFile],
    ...['--fault-rate', String(plan.faultRate), '--seed', String(plan.seed)],
    ...['--fault-kinds', 'rate-limit,server-error,hang'],
  ]);
  let cluster: Cluster | undefined;
  let runs: RemoteRuns | undefined;
  try {
    cluster = await startCluster({
      databaseUrl: servers.url,
      natsUrl: servers.nats.url,
      prefix: `chaos_${randomBytes(3).toString('hex')}`,
      modelsFile: writeJson(join(dir, 'models.json'), chaosRegistry(fake.baseURL)),
      verifiers: plan.verifiers,
      concurrency: plan.concurrency,
      // The gateway reads the chapters written for this run.
      env: { gateway: { INGEST_ROOT: realpathSync(dir) } },
    });
    runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
    const submittedAt = Date.now();
    const { run } = await runs.createRun(spec);
    const chaos = applyChaos(
      plan,
      { cluster, nats: servers.nats, pg: servers.pg, log, runOpen: () => isOpen(servers.db, run.id) },
      submittedAt,
    );
    const gatewayOutages = await follow(runs, run.id, chaos, log);
    const events = await chaos;
    const wallMs = Date.now() - submittedAt;
    const stats = await fake.stats();
    const db = servers.db;
    const counts = await runCounts(db, run.id);
    return {
      ...difference(counts, base.counts),
      plan,
      events,
      gatewayOutages,
      wallMs,
      report: await reportOf(db, run.id),
      baselineReport: base.report,
      counts,
      baselineCounts: base.counts,
      tasksRunAgain: await runQuery(
        db,
        'SELECT count(*) AS n FROM tasks WHERE run_id = $1 AND attempts > 1',
        run.id,
      ),
      completedChats: stats.completedChats,
      baselineChats: base.chats,
      faults: stats.faults,
      repeatedCalls: (await usageSoFar(db, run.id)).repeated,
    };
  } finally {
    runs?.close();
    await cluster?.stopAll();
    await fake.close();
    await servers.db.destroy();
    await servers.nats.dispose();
    await servers.pg.dispose();
  }
}

export function difference(got: RunCounts, want: RunCounts): { lost: number; duplicated: number } {
  let lost = 0;
  let duplicated = 0;
  for (const key of ['tasks', 'summaries', 'judgments', 'metricValues'] as const) {
    lost += Math.max(0, want[key] - got[key]);
    duplicated += Math.max(0, got[key] - want[key]);
  }
  return { lost, duplicated };
}

async function isOpen(db: DataSource, runId: string): Promise<boolean> {
  try {
    const [row] = await db.query('SELECT finished_at FROM runs WHERE id = $1', [runId]);
    return !row?.finished_at;
  } catch {
    // PostgreSQL is restarting: the run cannot have finished meanwhile.
    return true;
  }
}

// Follows the run through the gateway as `precis run --remote` does, from its submission, riding
// the gateway's restarts and outages; at most 3 minutes after the last fault.
async function follow(runs: RemoteRuns, runId: string, chaos: Promise<unknown>, log: (line: string) => void) {
  let outages = 0;
  const following = followRemoteRun(runs, runId, {
    pollMs: 250,
    reconnectMs: 60_000,
    onUnreachable: (message) => {
      outages++;
      log(`following: ${message}`);
    },
  });
  following.catch(() => {});
  await chaos;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the chaos run ${runId} did not finish within 3 minutes of the faults`)),
      180_000,
    );
  });
  try {
    const { run } = await Promise.race([following, late]);
    const status = remoteRunStatus(run);
    if (status !== 'completed') throw new Error(`the chaos run ended ${status}: ${run.error}`);
    log(`run ${runId} completed`);
    return outages;
  } finally {
    clearTimeout(timer);
  }
}
