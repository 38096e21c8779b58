import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { type Bus, createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, RunEntity, SummaryEntity } from '@precis/db';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import type { FakeLlmStats } from '@precis/testing';
import { summaryId, verifyTaskId } from '../ids.js';
import { specSha256 } from '../planner/create-run.usecase.js';
import { createRunContext } from '../runtime/run-context-factory.js';
import { startStageWorker } from '../runtime/stage-workers.js';
import { validateSpec } from '../spec/load-spec.js';
import { insertTasks, type NewTask } from '../tasks/task-store.js';

const SUMMARIES = 100;
const SENTENCES = 40;
const LATENCY_MS = 200;
const CAPACITY = 64;

// Starts the fake judge in a worker thread (see fake-judge.worker.ts).
async function startJudgeServer() {
  const worker = new Worker(new URL('./fake-judge.worker.js', import.meta.url), {
    workerData: { latencyMs: LATENCY_MS, capacity: CAPACITY },
  });
  const [ready] = (await once(worker, 'message')) as [{ baseURL: string }];
  const ask = async <T>(type: string, extra: Record<string, unknown> = {}): Promise<T> => {
    worker.postMessage({ type, ...extra });
    const [msg] = (await once(worker, 'message')) as [T];
    return msg;
  };
  return {
    baseURL: ready.baseURL,
    stats: async () => (await ask<{ stats: FakeLlmStats }>('stats')).stats,
    mark: () => ask('mark'),
    timeline: (since: number) =>
      ask<{ firstReceived: number; lastResponded: number; utilization: number | null }>('timeline', {
        since,
      }),
    close: async () => {
      await ask('close');
      await worker.terminate();
    },
  };
}

function summaryText(i: number): string {
  return Array.from(
    { length: SENTENCES },
    (_, k) => `Summary ${i} tells event number ${k + 1} of the story in one sentence.`,
  ).join(' ');
}

async function measure(mode: 'sentence' | 'batched', bus: Bus, url: string, profile?: string) {
  const db = await createDataSource({ url });
  const fake = await startJudgeServer();
  try {
    const registry = loadModelRegistry({
      models: {
        judge: { baseURL: fake.baseURL, model: 'judge', contextWindow: 32000, maxConcurrency: CAPACITY * 2 },
      },
    });
    const spec = validateSpec({
      name: `bench-${mode}`,
      datasets: [{ name: 'none' }],
      systems: [{ name: 'sys', strategy: 'hierarchical', engine: 'textrank' }],
      metrics: [{ name: 'booookscore', judge: { model: 'judge' }, mode, batchSize: 10 }],
      cache: false,
    });
    const run = await db.getRepository(RunEntity).save(
      db.getRepository(RunEntity).create({
        name: spec.name,
        status: 'running',
        spec: spec as never,
        specSha256: specSha256(spec),
        costLimitUsd: null,
        error: null,
        startedAt: new Date(),
        finishedAt: null,
      }),
    );
    // Summaries need a document id; these benchmark rows stand alone (no dataset).
    const docIds = Array.from(
      { length: SUMMARIES },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    await db.getRepository(SummaryEntity).insert(
      docIds.map((doc, i) => ({
        id: summaryId(run.id, 'sys', doc),
        runId: run.id,
        system: 'sys',
        documentId: doc,
        text: summaryText(i),
        finalStep: 'bench',
        producer: 'bench',
      })),
    );
    const size = mode === 'sentence' ? 1 : 10;
    const tasks: NewTask[] = [];
    docIds.forEach((doc, i) => {
      const sentences = summaryText(i).split(/(?<=\.) /);
      for (let start = 0, b = 0; start < sentences.length; start += size, b++) {
        tasks.push({
          id: verifyTaskId(run.id, 'sys', doc, 'booookscore.0', b),
          runId: run.id,
          stage: 'verify',
          kind: 'booookscore-batch',
          payload: {
            type: 'booookscore-batch',
            system: 'sys',
            documentId: doc,
            summaryId: summaryId(run.id, 'sys', doc),
            metricIndex: 0,
            sentences: sentences.slice(start, start + size).map((text, k) => ({ n: start + k + 1, text })),
          },
        });
      }
    });
    await insertTasks(db, tasks);
    let finished = 0;
    let resolveAll!: () => void;
    const all = new Promise<void>((r) => {
      resolveAll = r;
    });
    const chat = new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db), cacheEnabled: false });
    const ctx = createRunContext({ db, bus, registry, chat });
    // Warm-up, as a long-running worker is: database connections, HTTP connections and code paths
    // in use before the clock starts. Its calls are not counted.
    await Promise.all(Array.from({ length: CAPACITY * 2 }, () => db.query('SELECT 1')));
    await Promise.all(
      Array.from({ length: CAPACITY * 2 }, (_, i) =>
        chat.chat({ model: 'judge', messages: [{ role: 'user', content: `warm-up ${i}` }], cache: false }),
      ),
    );
    const warmCalls = (await fake.stats()).completedChats;
    ctx.events = {
      async taskFinished() {
        finished++;
        if (finished === tasks.length) resolveAll();
      },
    };
    const worker = await startStageWorker(ctx, bus, 'verify', { concurrency: CAPACITY * 2 });
    // --profile <file>: a V8 CPU profile of the timed window (the last mode measured).
    const profiler = profile ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    await fake.mark();
    const startedEpoch = Date.now();
    const started = performance.now();
    await bus.enqueueMany(
      'verify',
      tasks.map((t) => ({ id: t.id, runId: run.id, data: { taskId: t.id } })),
    );
    await all;
    const wallMs = performance.now() - started;
    const endedEpoch = Date.now();
    if (profiler) {
      writeFileSync(profile!, JSON.stringify((await profiler.post('Profiler.stop')).profile));
      profiler.disconnect();
    }
    await worker.stop();
    const timeline = await fake.timeline(startedEpoch);
    const stats = await fake.stats();
    const calls = stats.completedChats - warmCalls;
    const idealMs = (calls * LATENCY_MS) / CAPACITY;
    return {
      calls,
      wallMs,
      idealMs,
      ratio: wallMs / idealMs,
      maxActive: stats.maxActive,
      // Where the time beyond the server's own work went (ms, Date.now resolution).
      toFirstRequestMs: timeline.firstReceived - startedEpoch,
      afterLastResponseMs: endedEpoch - timeline.lastResponded,
      fakeBusy: timeline.utilization,
    };
  } finally {
    await fake.close();
    await db.destroy();
  }
}

const pct = (x: number | null | undefined) => (x == null ? 'n/a' : (100 * x).toFixed(0));

export async function run(args: string[]) {
  // --only sentence|batched: measure one mode (the other's figures are then n/a).
  const { values } = parseArgs({
    args,
    options: { only: { type: 'string' }, profile: { type: 'string' } },
    allowPositionals: true,
  });
  if (values.only !== undefined && values.only !== 'sentence' && values.only !== 'batched')
    throw new Error(`--only: expected sentence or batched, got "${values.only}"`);
  const tdb = await createThrowawayDatabase('bench_annotation');
  try {
    const bus = createInProcessBus();
    const skipped: Awaited<ReturnType<typeof measure>> = {
      calls: 0,
      wallMs: NaN,
      idealMs: NaN,
      ratio: NaN,
      maxActive: 0,
      toFirstRequestMs: NaN,
      afterLastResponseMs: NaN,
      fakeBusy: null,
    };
    const sentence =
      values.only === 'batched' ? skipped : await measure('sentence', bus, tdb.url, values.profile);
    const batched =
      values.only === 'sentence' ? skipped : await measure('batched', bus, tdb.url, values.profile);
    await bus.close();
    return {
      name: 'annotation-throughput',
      description: `BooookScore annotation of ${SUMMARIES} summaries x ${SENTENCES} sentences through the verify stage (tasks in PostgreSQL, in-process bus, judge via openai SDK -> fake server in a worker thread, latency ${LATENCY_MS} ms, capacity ${CAPACITY}); after a warm-up of connections; target wall <= 1.15 x ideal (calls x latency / capacity)`,
      metrics: {
        'per-sentence calls': sentence.calls,
        'per-sentence wall s': sentence.wallMs / 1000,
        'per-sentence ideal s': sentence.idealMs / 1000,
        'per-sentence wall/ideal': sentence.ratio,
        'batched calls': batched.calls,
        'batched wall s': batched.wallMs / 1000,
        'batched ideal s': batched.idealMs / 1000,
        'batched wall/ideal': batched.ratio,
        'ms to first request at server (per-sentence, batched)': `${sentence.toFirstRequestMs}, ${batched.toFirstRequestMs}`,
        'ms after last response (per-sentence, batched)': `${sentence.afterLastResponseMs}, ${batched.afterLastResponseMs}`,
        'fake server thread busy % (per-sentence, batched)': `${pct(sentence.fakeBusy)}, ${pct(batched.fakeBusy)}`,
        'max concurrent at server': Math.max(sentence.maxActive, batched.maxActive),
      },
    };
  } finally {
    await tdb.drop();
  }
}
