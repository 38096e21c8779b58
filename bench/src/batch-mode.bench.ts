// Batch mode (issue 39) at scale: an Op-I judge sweep over SummEval-OP with n samples per
// (summary, dimension), about --calls judge calls, run online and then through the fake server's
// Batch API (files of at most --max-requests, no processing delay), each in a fresh database.
// Prints the batch files, Precis's CPU per 1,000 calls in both modes (this process and
// PostgreSQL), the wall times and what the run paid in each mode.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import {
  createRun,
  createRunContext,
  RunCoordinator,
  startStageWorker,
  usageSoFar,
  validateSpec,
} from '@precis/engine';
import { importDataset, prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, parkCall } from '@precis/llm';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import { builtInFamilies } from './built-in-families.js';
import { cpuOf, cpuOfCommand } from './process-cpu.js';

const repo = resolve(import.meta.dirname, '../..');
const DATASET = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');
// SummEval-OP: 32 products x 13 rated summaries x 7 dimensions.
const TASKS = 32 * 13 * 7;

interface ModeResult {
  calls: number;
  wallS: number;
  processCpuS: number;
  postgresCpuS: number;
  costUsd: number;
  uploads: number;
  batches: number;
}

async function sweep(
  fake: FakeLlmProcess,
  opts: { batch: boolean; samples: number; maxRequests: number; capacity: number },
): Promise<ModeResult> {
  const tdb = await createThrowawayDatabase(`bench_batch_mode_${opts.batch ? 'batch' : 'online'}`);
  const db = await createDataSource({ url: tdb.url, poolSize: 32 });
  const bus = createInProcessBus();
  try {
    await importDataset(db, {
      kind: 'summeval-op',
      kinds: builtInFamilies.datasetKinds,
      path: DATASET,
      name: 'sop',
    });
    const registry = loadModelRegistry({
      models: {
        judge: {
          baseURL: fake.baseURL,
          model: 'judge',
          contextWindow: 32000,
          maxConcurrency: opts.capacity,
          timeoutMs: 600_000,
          pricePer1MInput: 0.15,
          pricePer1MOutput: 0.6,
          batch: { maxRequests: opts.maxRequests, maxBytes: '1GB', pollSeconds: 0.5, gatherSeconds: 2 },
        },
      },
    });
    const chat = new LlmClient({
      registry,
      env: {},
      store: createTypeOrmLlmStore(db, { batch: { maxRows: 500, maxDelayMs: 50 } }),
      parkCall: (call) => parkCall(db, call),
    });
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus, registry, chat });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: s === 'verify' ? 512 : 1, ackWaitMs: 3_600_000 }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 1000, undefined, chat);
    await coordinator.start();
    const spec = validateSpec(builtInFamilies, {
      name: 'batch-mode-bench',
      datasets: [{ name: 'sop' }],
      systems: [{ name: 'candidates', source: 'dataset' }],
      metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' }, samples: opts.samples }],
      ...(opts.batch ? { limits: { batch: ['verify'] } } : {}),
    });
    const before = {
      fake: await fake.stats(),
      process: cpuOf(process.pid),
      postgres: cpuOfCommand('postgres'),
    };
    const started = performance.now();
    try {
      const { run } = await createRun(ctx, { spec, file: 'bench', text: '' }, { fresh: true });
      const progress = await coordinator.watch(run.id);
      await chat.close();
      const wallS = (performance.now() - started) / 1000;
      if (progress.status !== 'completed') throw new Error(`run ended ${progress.status}: ${progress.error}`);
      const after = await fake.stats();
      const usage = await usageSoFar(db, run.id);
      return {
        calls: usage.calls,
        wallS,
        processCpuS: cpuOf(process.pid) - before.process,
        postgresCpuS: cpuOfCommand('postgres') - before.postgres,
        costUsd: usage.costUsd,
        uploads: after.batches.filesUploaded - before.fake.batches.filesUploaded,
        batches: after.batches.batchesCreated - before.fake.batches.batchesCreated,
      };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
    }
  } finally {
    await bus.close();
    await db.destroy();
    await tdb.drop();
  }
}

export async function run(args: string[]) {
  const values = parseArgs({
    args,
    options: {
      calls: { type: 'string', default: '100000' },
      'max-requests': { type: 'string', default: '50000' },
      capacity: { type: 'string', default: '256' },
    },
    allowPositionals: true,
  }).values;
  const samples = Math.ceil(Number(values.calls) / TASKS);
  const maxRequests = Number(values['max-requests']);
  const capacity = Number(values.capacity);
  // No latency online and no processing delay in batches: what is left is Precis's own work.
  const fake = await spawnFakeLlmProcess([
    '--capacity',
    String(capacity),
    '--latency',
    '0',
    '--batch-delay',
    '0',
    '--reply',
    'The summary follows the reviews for the most part. <score>4</score>',
  ]);
  try {
    const online = await sweep(fake, { batch: false, samples, maxRequests, capacity });
    const batch = await sweep(fake, { batch: true, samples, maxRequests, capacity });
    const perK = (s: number, r: ModeResult) => (1000 * s) / (r.calls / 1000);
    return {
      name: 'batch-mode',
      description: `Op-I judge sweep over SummEval-OP, ${TASKS} tasks x n = ${samples} samples, online (fake: capacity ${capacity}, no latency) then through the Batch API (files of at most ${maxRequests} requests, no processing delay), each in a fresh database; CPU of this process (planner, workers, LLM client, batcher) and of PostgreSQL per 1,000 calls`,
      metrics: {
        'judge calls (online, batch)': `${online.calls}, ${batch.calls}`,
        'batch files uploaded (batches created)': `${batch.uploads} (${batch.batches})`,
        'wall s (online, batch)': `${online.wallS.toFixed(1)}, ${batch.wallS.toFixed(1)}`,
        'this process CPU ms / 1,000 calls (online, batch)': `${perK(online.processCpuS, online).toFixed(0)}, ${perK(batch.processCpuS, batch).toFixed(0)}`,
        'PostgreSQL CPU ms / 1,000 calls (online, batch)': `${perK(online.postgresCpuS, online).toFixed(0)}, ${perK(batch.postgresCpuS, batch).toFixed(0)}`,
        'paid USD (online, batch)': `${online.costUsd.toFixed(4)}, ${batch.costUsd.toFixed(4)}`,
        'batch / online cost': batch.costUsd / online.costUsd,
      },
    };
  } finally {
    await fake.close();
  }
}
