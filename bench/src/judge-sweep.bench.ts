import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import {
  createRun,
  createRunContext,
  DEFAULT_STAGE_CONCURRENCY,
  RunCoordinator,
  startStageWorker,
  validateSpec,
} from '@precis/engine';
import { importDataset, prepareImport } from '@precis/ingest';
import {
  createTypeOrmLlmStore,
  LlmClient,
  type LlmStore,
  loadModelRegistry,
  MemoryLlmStore,
} from '@precis/llm';
import { spawnFakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { builtInFamilies } from './built-in-families.js';

const repo = resolve(import.meta.dirname, '../..');
const DATASET = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');

async function timedRun(
  db: DataSource,
  baseURL: string,
  store: LlmStore,
  opts: { capacity: number; tasks: number; samples: number; products: number },
) {
  const registry = loadModelRegistry({
    models: {
      judge: {
        baseURL,
        model: 'judge',
        contextWindow: 32000,
        maxConcurrency: opts.capacity * 2,
        timeoutMs: 600_000,
      },
    },
  });
  const chat = new LlmClient({ registry, env: {}, store });
  const bus = createInProcessBus();
  const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, registry, chat });
  const workers = await Promise.all([
    startStageWorker(ctx, bus, 'verify', { concurrency: opts.tasks, ackWaitMs: 600_000 }),
    startStageWorker(ctx, bus, 'score', { concurrency: 1, ackWaitMs: 600_000 }),
    startStageWorker(ctx, bus, 'summarize', { concurrency: 1 }),
  ]);
  const coordinator = new RunCoordinator(ctx, bus, 1000);
  await coordinator.start();
  const spec = validateSpec(builtInFamilies, {
    name: 'judge-sweep',
    datasets: [{ name: 'summeval-op', limit: opts.products }],
    systems: [{ name: 'candidates', source: 'dataset' }],
    metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' }, samples: opts.samples }],
  });
  try {
    const started = performance.now();
    const { run } = await createRun(ctx, { spec, file: 'judge-sweep', text: '' }, { fresh: true });
    const progress = await coordinator.watch(run.id);
    const wallMs = performance.now() - started;
    await chat.close();
    if (progress.status !== 'completed')
      throw new Error(`run ${run.id} ended ${progress.status}: ${progress.error}`);
    const [counts] = (await db.query(
      `SELECT count(*)::int AS tasks, count(*) FILTER (WHERE status = 'done')::int AS done
         FROM tasks WHERE run_id = $1 AND kind = 'judge-dimension'`,
      [run.id],
    )) as { tasks: number; done: number }[];
    // Where the wall time went, from the rows' own timestamps (ms after the run row was created).
    const [phases] = (await db.query(
      `SELECT (1000 * EXTRACT(EPOCH FROM max(t.created_at) FILTER (WHERE t.kind = 'judge-dimension') - r.created_at))::int AS planned,
              (1000 * EXTRACT(EPOCH FROM max(t.finished_at) FILTER (WHERE t.kind = 'judge-dimension') - r.created_at))::int AS judged,
              (1000 * EXTRACT(EPOCH FROM r.finished_at - r.created_at))::int AS finished
         FROM tasks t JOIN runs r ON r.id = t.run_id WHERE r.id = $1 GROUP BY r.created_at, r.finished_at`,
      [run.id],
    )) as { planned: number; judged: number; finished: number }[];
    return { wallMs, runId: run.id, tasks: counts!.tasks, done: counts!.done, phases: phases! };
  } finally {
    await coordinator.stop();
    for (const w of workers) await w.stop();
    await bus.close();
  }
}

type SweepOptions = Parameters<typeof timedRun>[3];

// The warm re-runs, the first of them profiled when --profile is given.
async function warmReruns(
  db: DataSource,
  baseURL: string,
  store: LlmStore,
  opts: SweepOptions,
  values: { reruns?: string | boolean; profile?: string | boolean },
): Promise<Awaited<ReturnType<typeof timedRun>>[]> {
  const reruns: Awaited<ReturnType<typeof timedRun>>[] = [];
  for (let i = 0; i < Number(values.reruns); i++) {
    const profiler = values.profile && i === 0 ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    reruns.push(await timedRun(db, baseURL, store, opts));
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(String(values.profile), JSON.stringify(profile));
      profiler.disconnect();
    }
  }
  return reruns;
}

function sweepArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      capacity: { type: 'string', default: '128' },
      latency: { type: 'string', default: '100' },
      samples: { type: 'string', default: '20' },
      // Judge tasks at once: the spec's default limits.concurrency unless given.
      tasks: { type: 'string', default: String(DEFAULT_STAGE_CONCURRENCY) },
      pool: { type: 'string', default: '32' },
      // Fewer products for a quicker look (the acceptance figure uses all 32).
      products: { type: 'string', default: '32' },
      // 'postgres': cache + ledger in llm_calls (the product's setup); 'memory': both in this
      // process, to see what the per-call ledger costs.
      store: { type: 'string', default: 'postgres' },
      profile: { type: 'string' },
      reruns: { type: 'string', default: '3' },
    },
    allowPositionals: true,
  }).values;
}

export async function run(args: string[]) {
  const values = sweepArgs(args);
  const capacity = Number(values.capacity);
  const latencyMs = Number(values.latency);
  const samples = Number(values.samples);
  const tasks = Number(values.tasks);
  const products = Number(values.products);
  const tdb = await createThrowawayDatabase('bench_judge_sweep');
  const db = await createDataSource({ url: tdb.url, poolSize: Number(values.pool) });
  // The fake server runs in its own process, so its work does not share this event loop.
  const fake = await spawnFakeLlmProcess([
    '--capacity',
    String(capacity),
    '--latency',
    String(latencyMs),
    '--reply',
    'The summary follows the metric for the most part. <score>4</score>',
  ]);
  try {
    await importDataset(db, {
      kind: 'summeval-op',
      kinds: builtInFamilies.datasetKinds,
      path: DATASET,
      name: 'summeval-op',
    });
    const load0 = loadavg()[0]!;
    // Ledger rows are written in batches: one round trip per few hundred calls, not per call.
    const store: LlmStore =
      values.store === 'memory'
        ? new MemoryLlmStore()
        : createTypeOrmLlmStore(db, { batch: { maxRows: 500, maxDelayMs: 50 } });
    const first = await timedRun(db, fake.baseURL, store, { capacity, tasks, samples, products });
    const afterFirst = await fake.stats();
    const fakeCpuFirst = fake.cpuSeconds();
    // Warm re-runs: each a fresh run of the same spec, every call answered by the cache. Several,
    // because one re-run takes a few seconds and this shared machine's timing varies by +-20%.
    // --profile <file>: a V8 CPU profile of the first re-run (open it in Chrome DevTools).
    const reruns = await warmReruns(db, fake.baseURL, store, { capacity, tasks, samples, products }, values);
    const walls = reruns.map((r) => r.wallMs).sort((a, b) => a - b);
    const medianMs = walls[Math.floor((walls.length - 1) / 2)]!;
    const second = reruns.find((r) => r.wallMs === medianMs)!;
    const afterSecond = await fake.stats();
    const calls = afterFirst.completedChats;
    const idealMs = (calls * latencyMs) / capacity;
    return {
      name: 'judge-sweep',
      description: `SummEval-OP 7-dimension Op-I judge sweep: ${first.tasks} (summary, dimension) tasks x n = ${samples} samples through the verify stage (tasks in PostgreSQL, in-process bus, LlmClient -> fake server in its own process, latency ${latencyMs} ms, capacity ${capacity}), then the same spec as fresh runs with a warm cache (median of --reruns, default 3); targets: wall close to the ideal (calls x latency / capacity), re-run without model calls in < 5% of the first run`,
      metrics: {
        'judge tasks': first.tasks,
        'llm store': String(values.store),
        'model calls (first run)': calls,
        'first run wall s': first.wallMs / 1000,
        'ideal s': idealMs / 1000,
        'first run wall/ideal': first.wallMs / idealMs,
        'max active at server': afterFirst.maxActive,
        // The fake counts prompt tokens with tiktoken per request: when this approaches the
        // first run's wall time, the fake server (not the run machinery) is the bottleneck.
        'fake server CPU s (first run)': fakeCpuFirst ?? 'n/a',
        'process CPU s (both runs)': process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
        'model calls (all re-runs)': afterSecond.completedChats - afterFirst.completedChats,
        're-run wall s (each)': reruns.map((r) => (r.wallMs / 1000).toFixed(3)).join(', '),
        're-run wall s (median)': medianMs / 1000,
        're-run / first run (median)': medianMs / first.wallMs,
        'median re-run ms: tasks planned, judged, run finished': `${second.phases.planned}, ${second.phases.judged}, ${second.phases.finished}`,
        'judge tasks done (first, median re-run)': `${first.done}, ${second.done}`,
        'load average 1 min (start, end)': `${load0.toFixed(2)}, ${loadavg()[0]!.toFixed(2)}`,
      },
    };
  } finally {
    await fake.close();
    await db.destroy();
    await tdb.drop();
  }
}
