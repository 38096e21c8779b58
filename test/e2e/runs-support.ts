// Shared pieces of the run end-to-end tests (runs-*.e2e-spec.ts): the fake LLM server as its own
// process, scripted judge rules, a model registry file, the book spec and the cluster of services.
// The embedded runs the cluster's results are compared with are in embedded-runs.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, generateApiKey, RunEntity } from '@precis/db';
import { loadModelRegistry } from '@precis/llm';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import type { RemoteAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { insecureAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import {
  freePort,
  type ServiceName,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';
import {
  type BenchmarkSpec,
  builtInFamilies,
  type LeaderboardRow,
  loadRunReport,
  validateSpec,
} from '../support/precis.js';

export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const story = resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md');

// The fixed summary every summarization call gets: 4 sentences, well under every budget.
export const FIXED_SUMMARY =
  'Mara keeps the lighthouse on the cliff. A storm comes in the night. She rows out and saves a fishing boat. The Board lets her stay.';

// The incremental system's summary differs, so no two systems send the judge the same prompt: a
// cache hit across tasks would then depend on timing, and so would the servers' call counts.
export const INCREMENTAL_SUMMARY =
  'Mara tends the light alone. One night a gale rises over the bay. She takes the small boat out to a trawler in trouble. The crew is saved. The Board allows her to keep the post.';

const TARGET = 'Target sentences \\(numbered as in the summary\\):\\n';

function verdict(n: number): Record<string, unknown> {
  // Every third sentence is confusing, so scores are neither 0 nor 1 and CIs are not degenerate.
  return n % 3 === 2
    ? { confusing: true, questions: [`Who is meant in sentence ${n}?`], types: ['entity omission'] }
    : { confusing: false };
}

// Rules for the judge in batched mode with batches of 1 or 2: a reply keyed by exactly the numbers
// of the batch (the strict parser rejects extra or missing keys), then the fixed summary for the rest.
export function judgeRules(maxSentences = 80): unknown[] {
  const rules: unknown[] = [];
  for (let k = 1; k <= maxSentences; k++) {
    rules.push({
      match: `${TARGET}\\[${k}\\] [^\\n]*\\n\\[${k + 1}\\] `,
      reply: JSON.stringify({ [k]: verdict(k), [k + 1]: verdict(k + 1) }),
    });
    rules.push({ match: `${TARGET}\\[${k}\\] `, reply: JSON.stringify({ [k]: verdict(k) }) });
  }
  rules.push({
    match: 'Below is the beginning of a story|Here is a summary of a story so far',
    reply: INCREMENTAL_SUMMARY,
  });
  rules.push({ match: '.', reply: FIXED_SUMMARY });
  return rules;
}

// Two model-backed systems and one offline one, judged by the model in batches; the lighthouse
// story unless another dataset is given.
export function bookSpec(
  opts: { batchSize?: number; name?: string; dataset?: { name: string; kind: string; path: string } } = {},
): BenchmarkSpec {
  return validateSpec(builtInFamilies, {
    name: opts.name ?? 'lighthouse-cluster',
    datasets: [opts.dataset ?? { name: 'lighthouse', kind: 'text', path: story }],
    systems: [
      {
        name: 'hier-fake',
        strategy: 'hierarchical',
        model: 'fake-model',
        params: { chunkSize: 200, levelBudgets: [60, 120] },
      },
      {
        name: 'inc-fake',
        strategy: 'incremental',
        model: 'fake-model',
        params: { chunkSize: 200, runningBudget: 120 },
      },
      { name: 'hier-textrank', strategy: 'hierarchical', engine: 'textrank', params: { chunkSize: 200 } },
    ],
    metrics: [
      {
        name: 'booookscore',
        judge: { model: 'fake-model' },
        mode: 'batched',
        batchSize: opts.batchSize ?? 2,
      },
    ],
    seed: 7,
  });
}

export function registryObject(baseURL: string) {
  return {
    models: {
      'fake-model': {
        baseURL,
        model: 'fake-model',
        contextWindow: 4096,
        maxConcurrency: 16,
        pricePer1MInput: 1,
        pricePer1MOutput: 2,
      },
    },
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// The fake OpenAI-compatible server as its own process (one per model-calling service in the
// kill test, so each process's in-flight calls can be seen).
export function startFakeProcess(rulesFile: string, latencyMs: number): Promise<FakeLlmProcess> {
  return spawnFakeLlmProcess(['--latency', String(latencyMs), '--capacity', '64', '--rules', rulesFile]);
}

export interface Cluster {
  gateway: ServiceProcess;
  grpcAddress: string;
  // The gateway's API key (mounted in its PRECIS_API_KEYS) on a plaintext channel.
  access: RemoteAccess;
  procs: Map<string, ServiceProcess>;
  start(id: string, name: ServiceName): Promise<ServiceProcess>;
  stopAll(): Promise<void>;
}

// Gateway, summarization, scoring and the given verifier replicas, as separate processes over
// one throwaway database and a NATS prefix of their own.
export async function startCluster(opts: {
  databaseUrl: string;
  prefix: string;
  modelsFile: string;
  verifiers: number;
  // A NATS server of the test's own (default NATS_URL).
  natsUrl?: string;
  // Retrieval service processes (PerSphere's retrieve stage); none by default.
  retrievals?: number;
  concurrency?: number;
  // Extra environment per process id ('summarization', 'verifier-1', ...), e.g. its own PRECIS_MODELS.
  env?: Record<string, Record<string, string>>;
  // Extra environment of every process (e.g. PRECIS_FAMILIES).
  sharedEnv?: Record<string, string>;
}): Promise<Cluster> {
  const common = {
    DATABASE_URL: opts.databaseUrl,
    DATABASE_RUN_MIGRATIONS: 'false',
    NATS_URL: opts.natsUrl ?? natsUrl,
    PRECIS_BUS_PREFIX: opts.prefix,
    HTTP_HOST: '127.0.0.1',
    PRECIS_MODELS: opts.modelsFile,
    // Specs and imports name files under the repository (examples/data).
    INGEST_ROOT: realpathSync(repoRoot),
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '10000',
    TASK_RETRY_DELAYS_MS: '200',
    // A killed worker's tasks come back after this long (heartbeats keep live ones claimed).
    TASK_ACK_WAIT_MS: '3000',
    WORKER_CONCURRENCY: String(opts.concurrency ?? 4),
    ...opts.sharedEnv,
  };
  const procs = new Map<string, ServiceProcess>();
  // What a process was first started with, so a restart gets the same ports and settings.
  const extras = new Map<string, Record<string, string>>();
  const start = async (
    id: string,
    name: ServiceName,
    extra: Record<string, string> = extras.get(id) ?? {},
  ) => {
    extras.set(id, extra);
    const proc = startService(repoRoot, name, {
      ...common,
      HTTP_PORT: String(await freePort()),
      ...opts.env?.[id],
      ...extra,
    });
    procs.set(id, proc);
    await waitReady(proc);
    return proc;
  };
  const grpcPort = await freePort();
  const access = insecureAccess(generateApiKey());
  const gateway = await start('gateway', 'gateway', {
    PRECIS_API_KEYS: access.key,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    RUN_TICK_MS: '500',
  });
  await Promise.all([
    start('summarization', 'summarization'),
    start('scoring', 'scoring'),
    ...Array.from({ length: opts.verifiers }, (_, i) => start(`verifier-${i + 1}`, 'verifier')),
    ...Array.from({ length: opts.retrievals ?? 0 }, (_, i) => start(`retrieval-${i + 1}`, 'retrieval')),
  ]);
  return {
    gateway,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    access,
    procs,
    start: (id, name) => start(id, name),
    async stopAll() {
      await Promise.all([...procs.values()].map((p) => p.stop('SIGKILL')));
    },
  };
}

export async function deleteBusStreams(prefix: string): Promise<void> {
  const admin = await createNatsBus({ servers: natsUrl, prefix });
  try {
    await admin.deleteStreams();
  } finally {
    await admin.close();
  }
}

// Tasks of a stage one service process finished (precis_tasks_total: done, failed or dead).
export async function finishedTasks(proc: Pick<ServiceProcess, 'httpPort'>, stage: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${proc.httpPort}/metrics`)).text();
  const finished = /^precis_tasks_total\{kind="[^"]*",outcome="(done|failed|dead)",stage="([^"]*)"\} (\d+)$/;
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = finished.exec(line);
    if (m && m[2] === stage) sum += Number(m[3]);
  }
  return sum;
}

export interface RunCounts {
  tasks: number;
  tasksDone: number;
  summarizeTasks: number;
  verifyTasks: number;
  summaries: number;
  judgments: number;
  metricValues: number;
  modelCalls: number;
  cacheHits: number;
}

export async function runCounts(db: DataSource, runId: string): Promise<RunCounts> {
  const one = async (sql: string) => Number((await db.query(sql, [runId]))[0].n);
  return {
    tasks: await one('SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1'),
    tasksDone: await one(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND status = 'done'`),
    summarizeTasks: await one(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'summarize'`),
    verifyTasks: await one(`SELECT COUNT(*) AS n FROM tasks WHERE run_id = $1 AND stage = 'verify'`),
    summaries: await one('SELECT COUNT(*) AS n FROM summaries WHERE run_id = $1'),
    judgments: await one('SELECT COUNT(*) AS n FROM judgments WHERE run_id = $1'),
    metricValues: await one('SELECT COUNT(*) AS n FROM metric_values WHERE run_id = $1'),
    modelCalls: await one(
      'SELECT COALESCE(SUM(calls), 0) AS n FROM llm_calls WHERE run_id = $1 AND NOT cache_hit',
    ),
    cacheHits: await one(
      'SELECT COALESCE(SUM(calls), 0) AS n FROM llm_calls WHERE run_id = $1 AND cache_hit',
    ),
  };
}

export async function leaderboardOf(db: DataSource, runId: string): Promise<LeaderboardRow[]> {
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  const report = await loadRunReport(db, run);
  return [...report.leaderboard].sort((a, b) => a.system.localeCompare(b.system));
}

export function writeJson(file: string, data: unknown): string {
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// The same spec submitted to the services as separate processes (over a throwaway database and a
// NATS prefix of its own) and followed to completion: what `outcome` reads from it; `check` runs
// against the database and the processes before they stop.
export async function clusterOutcome<T>(opts: {
  name: string;
  registry: Parameters<typeof loadModelRegistry>[0];
  dir: string;
  spec: BenchmarkSpec;
  cluster: Omit<Parameters<typeof startCluster>[0], 'databaseUrl' | 'prefix' | 'modelsFile'>;
  outcome: (db: DataSource, runId: string) => Promise<T>;
  check?: (db: DataSource, cluster: Cluster) => Promise<void>;
}): Promise<T> {
  const prefix = `e2e_${opts.name}_${randomBytes(4).toString('hex')}`;
  const tdb = await createThrowawayDatabase(`e2e_${opts.name}_cluster`);
  const db = await createDataSource({ url: tdb.url, runMigrations: true });
  const modelsFile = writeJson(join(opts.dir, `models-${prefix}.json`), opts.registry);
  const c = await startCluster({ ...opts.cluster, databaseUrl: tdb.url, prefix, modelsFile });
  const runs = new RemoteRuns(c.grpcAddress, c.access);
  try {
    const { run } = await runs.createRun(opts.spec);
    const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
    if (remoteRunStatus(final) !== 'completed')
      throw new Error(
        `the ${opts.name} run across the services ended ${remoteRunStatus(final)}: ${final.error}`,
      );
    const result = await opts.outcome(db, run.id);
    await opts.check?.(db, c);
    return result;
  } finally {
    runs.close();
    await c.stopAll();
    await db.destroy();
    await tdb.drop();
    await deleteBusStreams(prefix);
  }
}
