import { writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Bus, createInProcessBus, createNatsBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, databaseStatements } from '@precis/db';
import { createRun, createRunContext, RunCoordinator, startStageWorker, validateSpec } from '@precis/engine';
import { importDataset, prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { builtInFamilies } from './built-in-families.js';
import { sampleBackends, statementFloor, statementsOf } from './db-activity.js';
import { intListFlag } from './flags.js';
import { cpuOf, cpuOfCommand } from './process-cpu.js';
import { sdkFloor } from './sdk-floor.js';
import { cpuProfileArgs, profiledHere, startServiceProcess } from './service-process.js';

const repo = resolve(import.meta.dirname, '../..');
const KGDS = resolve(repo, '../shared/datasets/kgds/KGDS.json');
const VERIFIER = resolve(repo, 'apps/verifier/dist/main.js');

// Static replies for every list length the KGDS judge prompts can have (the fake runs in its own
// process, so its rules are a file): yes to odd items, OFI for every missed opinion, gold is A.
function judgeRules(): unknown[] {
  const lines = (n: number, answer: (k: number) => string) =>
    Array.from({ length: n }, (_, i) => `${i + 1}. ${answer(i + 1)}`).join('\n');
  const rules: unknown[] = [];
  for (let n = 1; n <= 120; n++) {
    rules.push({ match: `Facts, numbered 1 to ${n}:`, reply: lines(n, (k) => (k % 2 ? 'yes' : 'no')) });
    rules.push({ match: `Opinions, numbered 1 to ${n} `, reply: lines(n, (k) => (k % 2 ? 'yes' : 'no')) });
    rules.push({ match: `these opinions, numbered 1 to ${n}:`, reply: lines(n, () => 'OFI') });
  }
  rules.push({ match: 'Answer A: paragraphs', reply: '{"better": "A"}' });
  return rules;
}

function registry(baseURL: string, capacity: number) {
  return loadModelRegistry({
    models: {
      judge: { baseURL, model: 'judge', contextWindow: 128000, maxConcurrency: capacity, timeoutMs: 600_000 },
    },
  });
}

// One run to its end with this process planning (and summarizing: offline systems only); the
// verify stage here too, or in the given verifier processes when `bus` is NATS.
async function timedRun(
  db: DataSource,
  bus: Bus,
  baseURL: string,
  capacity: number,
  raw: Record<string, unknown>,
  verifyHere: boolean,
) {
  const reg = registry(baseURL, capacity);
  const chat = new LlmClient({
    registry: reg,
    env: {},
    store: createTypeOrmLlmStore(db, { batch: { maxRows: 500, maxDelayMs: 50 } }),
  });
  const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, registry: reg, chat });
  const stages = verifyHere ? (['summarize', 'verify', 'score'] as const) : (['summarize', 'score'] as const);
  const workers = await Promise.all(
    stages.map((s) => startStageWorker(ctx, bus, s, { concurrency: 128, ackWaitMs: 600_000 })),
  );
  const coordinator = new RunCoordinator(ctx, bus, 200);
  await coordinator.start();
  try {
    const spec = validateSpec(builtInFamilies, raw);
    const started = performance.now();
    const { run } = await createRun(ctx, { spec, file: 'kgds-verify', text: '' }, { fresh: true });
    const progress = await coordinator.watch(run.id);
    const wallMs = performance.now() - started;
    if (progress.status !== 'completed')
      throw new Error(`run ${run.id} ended ${progress.status}: ${progress.error}`);
    const [v] = await db.query(
      `SELECT count(*)::int AS tasks, (1000 * EXTRACT(EPOCH FROM max(finished_at) - min(created_at)))::int AS ms
         FROM tasks WHERE run_id = $1 AND stage = 'verify'`,
      [run.id],
    );
    return {
      runId: run.id,
      wallMs,
      verifyTasks: v.tasks as number,
      verifyMs: v.ms as number,
      planning: coordinator.planning,
    };
  } finally {
    await coordinator.stop();
    for (const w of workers) await w.stop();
    await chat.close();
  }
}

// CPU seconds per role between start() and the returned report(), and how many of the machine's
// cores they kept busy over `wallMs` (all roles together): a phase near every core is CPU-bound.
// `excluded`: CPU seconds of a role that were the bench's own measuring, taken out of it.
function cpuMeter(
  roles: Record<string, () => number>,
): (
  wallMs: number,
  excluded?: Record<string, number>,
) => { text: string; total: number; byRole: Record<string, number> } {
  const start = Object.fromEntries(Object.entries(roles).map(([k, f]) => [k, f()]));
  return (wallMs, excluded = {}) => {
    const used = Object.entries(roles).map(([k, f]) => [k, f() - start[k]! - (excluded[k] ?? 0)] as const);
    const total = used.reduce((a, [, v]) => a + v, 0);
    const cores = `${(total / (wallMs / 1000)).toFixed(2)} of ${availableParallelism()} cores busy`;
    const text = `${used.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}; ${cores}`;
    return { text, total, byRole: Object.fromEntries(used) };
  };
}

const sharedRoles = (fake: FakeLlmProcess) => ({
  'this process': () => cpuOf(process.pid),
  'fake server': () => cpuOf(fake.child.pid!),
  postgres: () => cpuOfCommand('postgres'),
  'nats-server': () => cpuOfCommand('nats-server'),
});

// `profileDir`: each verifier writes a V8 CPU profile there when it exits.
const startVerifier = (env: Record<string, string>, profileDir?: string) =>
  startServiceProcess(VERIFIER, env, 'verifier', cpuProfileArgs(profileDir));

type PoolOptions = {
  capacity: number;
  perProcess: number;
  copies: number;
  profileDir?: string;
  unprepared: boolean;
};

const abs = { name: 'gold-abs', source: 'gold', pattern: 'abs-aos' };
const kgdsSpec = (name: string, systems: unknown[]) => ({
  name,
  datasets: [{ name: 'kgds', kind: 'kgds', path: KGDS }],
  systems,
  metrics: [{ name: 'kgds', judge: { model: 'judge' } }],
  // Every run calls the judge: runs share the database, so cached answers would skip calls.
  cache: false,
});

// Verifier processes (WORKER_CONCURRENCY tasks each) over NATS: the verify stage's wall time.
async function withVerifiers(
  n: number,
  db: { url: string; ds: DataSource },
  fake: FakeLlmProcess,
  { capacity, perProcess, copies, profileDir, unprepared }: PoolOptions,
) {
  const prefix = `bench_kgds_${n}_${process.pid}`;
  const models = join(tmpdir(), `${prefix}-models.json`);
  writeFileSync(
    models,
    JSON.stringify({
      models: {
        judge: { baseURL: fake.baseURL, model: 'judge', contextWindow: 128000, maxConcurrency: capacity },
      },
    }),
  );
  const bus = await createNatsBus({ prefix });
  const procs = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      startVerifier(
        {
          DATABASE_URL: db.url,
          DATABASE_RUN_MIGRATIONS: 'false',
          DATABASE_POOL_SIZE: '10',
          DATABASE_PREPARED_STATEMENTS: String(!unprepared),
          NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
          PRECIS_BUS_PREFIX: prefix,
          PRECIS_MODELS: models,
          HTTP_HOST: '127.0.0.1',
          HTTP_PORT: String(19_300 + 10 * n + i),
          LOG_LEVEL: 'warn',
          WORKER_CONCURRENCY: String(perProcess),
        },
        profileDir,
      ),
    ),
  );
  const meter = cpuMeter({
    ...sharedRoles(fake),
    verifiers: () => procs.reduce((a, p) => a + cpuOf(p.pid!), 0),
  });
  const ports = procs.map((_, i) => 19_300 + 10 * n + i);
  const statements = { verifiers: await statementsOf(ports), here: databaseStatements() };
  const locks = await sampleBackends(db.url);
  const chatsBefore = (await fake.stats()).completedChats;
  try {
    // `copies` of the four lead systems: 200 verify tasks each.
    const systems = Array.from({ length: copies }, (_, c) =>
      [2, 3, 4, 5].map((k) => ({
        name: `lead-${k}${c ? `-copy${c}` : ''}`,
        strategy: 'ebs-aos',
        engine: 'lead',
        params: { paragraphs: k },
      })),
    ).flat();
    const r = await profiledHere(profileDir, `planning-${n}-verifiers`, () =>
      timedRun(db.ds, bus, fake.baseURL, capacity, kgdsSpec(`kgds-${n}-verifiers`, systems), false),
    );
    const waits = await locks.stop();
    const sql = {
      verifiers: (await statementsOf(ports)) - statements.verifiers,
      here: databaseStatements() - statements.here,
    };
    // The sampler's backend is in the postgres total: measuring is not the work measured.
    const calls = (await fake.stats()).completedChats - chatsBefore;
    return { ...r, cpu: meter(r.wallMs, { postgres: waits.samplerBackendCpuS }), sql, waits, calls };
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await bus.deleteStreams();
    await bus.close();
  }
}

// 1) One ABS-AOS system, all 100 samples, verified in this process (embedded bus).
async function absPhase(ds: DataSource, fake: FakeLlmProcess, capacity: number, latency: number) {
  const before = (await fake.stats()).completedChats;
  const meter = cpuMeter(sharedRoles(fake));
  const embedded = await timedRun(
    ds,
    createInProcessBus(),
    fake.baseURL,
    capacity,
    kgdsSpec('kgds-abs', [abs]),
    true,
  );
  const calls = (await fake.stats()).completedChats - before;
  const idealMs = (calls * latency) / capacity;
  return {
    'abs: verify tasks': embedded.verifyTasks,
    'abs: judge calls': calls,
    'abs: wall s': embedded.wallMs / 1000,
    'abs: ideal s (calls x latency / capacity)': idealMs / 1000,
    'abs: wall/ideal': embedded.wallMs / idealMs,
    'abs: verify window s (first task created to last finished)': embedded.verifyMs / 1000,
    'abs: verify window/ideal': embedded.verifyMs / idealMs,
    'abs: max active at server': (await fake.stats()).maxActive,
    'abs: CPU s by process': meter(embedded.wallMs).text,
  };
}

// How the verifiers' CPU per task splits: the openai SDK's own (the run's requests sent again
// through it alone) and the rest, Precis's work around each call (claim, ledger, bus, parsing).
async function sdkShare(
  n: number,
  r: Awaited<ReturnType<typeof withVerifiers>>,
  db: DataSource,
  fake: FakeLlmProcess,
  pool: Pick<PoolOptions, 'capacity' | 'perProcess'>,
): Promise<Record<string, number | string>> {
  const spec = registry(fake.baseURL, pool.capacity).get('judge');
  const floor = await sdkFloor(db, r.runId, spec, pool.perProcess);
  const verifierMs = (1000 * (r.cpu.byRole.verifiers ?? 0)) / r.verifyTasks;
  const sdkMs = (floor.cpuMsPerCall * r.calls) / r.verifyTasks;
  return {
    [`openai SDK alone: CPU ms per call (the ${n}-verifier run's ${floor.calls} requests sent again, ${pool.perProcess} at a time)`]:
      floor.cpuMsPerCall,
    [`${n} verifier(s): verifiers' CPU ms per verify task (all; the SDK's at that many calls; the rest)`]: `${verifierMs.toFixed(2)}; ${sdkMs.toFixed(2)}; ${(verifierMs - sdkMs).toFixed(2)}`,
  };
}

// Throughput targets of n verifier processes, as multiples of one process's.
const TARGETS: Record<number, number> = { 2: 1.8, 4: 3.2, 16: 14 };

// 2) Four EBS-AOS lead systems (one judge call per task at a time) by n verifier processes each.
async function scalingPhase(
  counts: number[],
  copies: number[],
  db: { url: string; ds: DataSource },
  fake: FakeLlmProcess,
  pool: Omit<PoolOptions, 'copies'>,
) {
  const metrics: Record<string, number | string> = {};
  let one = 0;
  for (const [i, n] of counts.entries()) {
    const r = await withVerifiers(n, db, fake, { ...pool, copies: copies[i]! });
    const perS = r.verifyTasks / (r.verifyMs / 1000);
    if (n === 1) one = perS;
    metrics[`${n} verifier(s): verify tasks`] = r.verifyTasks;
    metrics[`${n} verifier(s): verify tasks/s`] = perS;
    metrics[`${n} verifier(s): verify s`] = r.verifyMs / 1000;
    if (one) metrics[`${n} verifier(s): x one process`] = perS / one;
    metrics[`${n} verifier(s): CPU s by process`] = r.cpu.text;
    // Every process shares this machine's cores: a target needing more cores than it has
    // cannot be met here however the work is spread.
    const cpuMsPerTask = (1000 * r.cpu.total) / r.verifyTasks;
    metrics[`${n} verifier(s): CPU ms per verify task (all processes, whole run)`] = cpuMsPerTask;
    metrics[`${n} verifier(s): judge calls per verify task`] = r.calls / r.verifyTasks;
    if (i === 0) Object.assign(metrics, await sdkShare(n, r, db.ds, fake, pool));
    const per = (x: number) => (x / r.verifyTasks).toFixed(2);
    // This process plans the run and runs its summarize and score stages.
    metrics[`${n} verifier(s): SQL statements per verify task (verifiers; this process)`] =
      `${per(r.sql.verifiers)}; ${per(r.sql.here)}`;
    // Backends alone: the postgres total also holds checkpoints, autovacuum and other databases.
    const pgMs = (1000 * r.waits.backendCpuS) / r.verifyTasks;
    metrics[`${n} verifier(s): PostgreSQL CPU ms per verify task (this database's backends; per statement)`] =
      `${pgMs.toFixed(2)}; ${((1000 * r.waits.backendCpuS) / (r.sql.verifiers + r.sql.here)).toFixed(3)}`;
    metrics[`${n} verifier(s): lock-wait ms per verify task (pg_stat_activity every 50 ms)`] =
      r.waits.waitMs / r.verifyTasks;
    metrics[`${n} verifier(s): statement waiting on a lock most`] = r.waits.top;
    metrics[`${n} verifier(s): CPU s of the sampling (its process; its backend), not counted above`] =
      `${r.waits.samplerCpuS.toFixed(2)}; ${r.waits.samplerBackendCpuS.toFixed(2)}`;
    // The coordinator (this process) plans as tasks finish: busy near 100% it would hold them back.
    metrics[`${n} verifier(s): planner rounds; busy ms per verify task; busy % of verify window`] =
      `${r.planning.rounds}; ${per(r.planning.busyMs)}; ${((100 * r.planning.busyMs) / r.verifyMs).toFixed(1)}%`;
    const target = TARGETS[n];
    if (one && target)
      metrics[`${n} verifier(s): cores the ${target}x target needs at that cost`] =
        (target * one * cpuMsPerTask) / 1000;
  }
  return metrics;
}

// `--copies`: one number for every process count, or one per count.
function copiesPerCount(text: string, counts: number[]): number[] {
  const list = intListFlag('kgds-verify', 'copies', text);
  if (list.length === 1) return counts.map(() => list[0]!);
  if (list.length !== counts.length)
    throw new Error(
      `kgds-verify: --copies ${text} gives ${list.length} numbers for ${counts.length} process counts (--processes ${counts.join(',')}): give one, or one per count`,
    );
  return list;
}

export async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      capacity: { type: 'string', default: '128' },
      latency: { type: 'string', default: '100' },
      'per-process': { type: 'string', default: '16' },
      processes: { type: 'string', default: '1,2,4' },
      // Copies of the four lead systems (800 verify tasks each): one number for every process
      // count, or one per count (`--processes 1,4,8,16 --copies 2,4,8,12`).
      copies: { type: 'string', default: '1' },
      // A folder for V8 CPU profiles: one per verifier process, and this process's (planning) per count.
      profile: { type: 'string' },
      // Every statement unprepared (DATABASE_PREPARED_STATEMENTS=false), to compare.
      unprepared: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const capacity = Number(values.capacity);
  const latency = Number(values.latency);
  const counts = intListFlag('kgds-verify', 'processes', String(values.processes));
  const copies = copiesPerCount(String(values.copies), counts);
  const rulesFile = join(tmpdir(), `bench-kgds-rules-${process.pid}.json`);
  writeFileSync(rulesFile, JSON.stringify(judgeRules()));
  const fake = await spawnFakeLlmProcess([
    '--capacity',
    String(capacity),
    '--latency',
    String(latency),
    '--rules',
    rulesFile,
  ]);
  const tdb = await createThrowawayDatabase('bench_kgds_verify');
  const unprepared = values.unprepared === true;
  const ds = await createDataSource({
    url: tdb.url,
    runMigrations: true,
    poolSize: 32,
    preparedStatements: !unprepared,
  });
  try {
    // Imported before anything is timed (a run imports an unchanged file as a no-op).
    await importDataset(ds, { kind: 'kgds', kinds: builtInFamilies.datasetKinds, path: KGDS, name: 'kgds' });
    const floor = await statementFloor(tdb.url);
    const metrics = {
      'PostgreSQL backend CPU ms per statement (trivial read; one-row write; the same not waiting for the WAL flush)': `${floor.readMs.toFixed(3)}; ${floor.writeMs.toFixed(3)}; ${floor.writeAsyncMs.toFixed(3)}`,
      ...(await absPhase(ds, fake, capacity, latency)),
      ...(await scalingPhase(counts, copies, { url: tdb.url, ds }, fake, {
        capacity,
        perProcess: Number(values['per-process']),
        profileDir: values.profile,
        unprepared,
      })),
    };
    return {
      name: 'kgds-verify',
      description: `KGDS verification against the fake server in its own process (latency ${latency} ms, capacity ${capacity}): (1) every sample of one ABS-AOS system (gold) judged embedded, wall vs the ideal, target <= 1.25x; (2) the 800 verify tasks (opinions, feedback) of four EBS-AOS lead systems (times --copies ${values.copies}) by ${counts.join(', ')} verifier processes over NATS + PostgreSQL with ${values['per-process']} tasks each at a time, targets of one process's throughput: >= 1.8x at 2, >= 3.2x at 4, >= 14x at 16; statements ${unprepared ? 'unprepared (--unprepared)' : 'prepared'}`,
      metrics,
    };
  } finally {
    await ds.destroy();
    await tdb.drop();
    await fake.close();
  }
}
