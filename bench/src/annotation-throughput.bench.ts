import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { type Bus, createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, RunEntity, SummaryEntity } from '@precis/db';
import type { BenchmarkSpec } from '@precis/engine';
import {
  createRunContext,
  insertTasks,
  type NewTask,
  specSha256,
  startStageWorker,
  summaryId,
  taskMessage,
  validateSpec,
  verifyTaskId,
} from '@precis/engine';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import type { FakeLlmStats } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { builtInFamilies } from './built-in-families.js';

const SUMMARIES = 100;
const SENTENCES = 40;
const LATENCY_MS = 200;
const CAPACITY = 64;
// Annotation tasks run through the worker before the clock starts (eight full rounds of the
// client's 128 tasks at once): with two, the first timed runs were the slowest (1.18-1.23 x ideal
// against 1.15-1.17 for the runs after them).
const WARM_UP_TASKS = 8 * CAPACITY * 2;

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
      ask<{ received: number[]; lastResponded: number; utilization: number | null }>('timeline', { since }),
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

// A run of `taskCount` annotation tasks (batches of `size` sentences) over generated summaries
// numbered from `first`: the run row, its summaries and its tasks, not yet on the bus.
async function prepareRun(
  db: DataSource,
  spec: BenchmarkSpec,
  size: number,
  taskCount: number,
  first: number,
): Promise<{ runId: string; tasks: NewTask[] }> {
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
  const perSummary = Math.ceil(SENTENCES / size);
  // Summaries need a document id; these benchmark rows stand alone (no dataset).
  const docs = Array.from({ length: Math.ceil(taskCount / perSummary) }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(first + i).padStart(12, '0')}`,
    text: summaryText(first + i),
  }));
  await db.getRepository(SummaryEntity).insert(
    docs.map((doc) => ({
      id: summaryId(run.id, 'sys', doc.id),
      runId: run.id,
      system: 'sys',
      documentId: doc.id,
      text: doc.text,
      finalStep: 'bench',
      producer: 'bench',
    })),
  );
  const tasks: NewTask[] = [];
  for (const doc of docs) {
    const sentences = doc.text.split(/(?<=\.) /);
    for (let start = 0, b = 0; start < sentences.length && tasks.length < taskCount; start += size, b++) {
      tasks.push({
        id: verifyTaskId(run.id, 'sys', doc.id, 'booookscore.0', b),
        runId: run.id,
        stage: 'verify',
        kind: 'booookscore-batch',
        payload: {
          type: 'booookscore-batch',
          system: 'sys',
          documentId: doc.id,
          summaryId: summaryId(run.id, 'sys', doc.id),
          metricIndex: 0,
          sentences: sentences.slice(start, start + size).map((text, k) => ({ n: start + k + 1, text })),
        },
      });
    }
  }
  await insertTasks(db, tasks);
  return { runId: run.id, tasks };
}

interface Round {
  calls: number;
  wallMs: number;
  idealMs: number;
  ratio: number;
  maxActive: number;
  toFirstRequestMs: number;
  toLastFullSlotRequestMs: number;
  extra: number;
  floorMs: number;
  afterLastResponseMs: number;
  fakeBusy: number | null;
}

interface Rig {
  db: DataSource;
  fake: Awaited<ReturnType<typeof startJudgeServer>>;
  finishedAll: (run: { runId: string; tasks: NewTask[] }) => Promise<void>;
  enqueue: (run: { runId: string; tasks: NewTask[] }) => Promise<unknown>;
}

// One timed run of other summaries through the warmed-up worker; `profile`: write a V8 CPU
// profile of it there.
async function timedRound(
  { db, fake, finishedAll, enqueue }: Rig,
  spec: BenchmarkSpec,
  size: number,
  r: number,
  profile: string | undefined,
): Promise<Round> {
  const timed = await prepareRun(db, spec, size, SUMMARIES * Math.ceil(SENTENCES / size), r * SUMMARIES);
  const callsBefore = (await fake.stats()).completedChats;
  const all = finishedAll(timed);
  const profiler = profile ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  await fake.mark();
  const startedEpoch = Date.now();
  const started = performance.now();
  await enqueue(timed);
  await all;
  const wallMs = performance.now() - started;
  const endedEpoch = Date.now();
  if (profiler) {
    writeFileSync(profile!, JSON.stringify((await profiler.post('Profiler.stop')).profile));
    profiler.disconnect();
  }
  const timeline = await fake.timeline(startedEpoch);
  const stats = await fake.stats();
  const calls = stats.completedChats - callsBefore;
  const idealMs = (calls * LATENCY_MS) / CAPACITY;
  // With every request taking the same latency, the slots that serve one request more than
  // the others (calls mod capacity of them) are those the first requests got: the run cannot
  // end before the latest of those came in plus ceil(calls / capacity) latencies.
  const extra = calls % CAPACITY || CAPACITY;
  return {
    calls,
    wallMs,
    idealMs,
    ratio: wallMs / idealMs,
    maxActive: stats.maxActive,
    // Where the time beyond the server's own work went (ms, Date.now resolution).
    toFirstRequestMs: (timeline.received[0] ?? NaN) - startedEpoch,
    toLastFullSlotRequestMs: (timeline.received[extra - 1] ?? NaN) - startedEpoch,
    extra,
    floorMs: Math.ceil(calls / CAPACITY) * LATENCY_MS,
    afterLastResponseMs: endedEpoch - timeline.lastResponded,
    fakeBusy: timeline.utilization,
  };
}

// `rounds` timed runs of the mode through one worker (each a fresh run of other summaries), after
// a warm-up run; returns them in the order they ran.
async function measure(
  mode: 'sentence' | 'batched',
  bus: Bus,
  url: string,
  rounds: number,
  profile?: string,
): Promise<Round[]> {
  const db = await createDataSource({ url });
  const fake = await startJudgeServer();
  try {
    const registry = loadModelRegistry({
      models: {
        judge: { baseURL: fake.baseURL, model: 'judge', contextWindow: 32000, maxConcurrency: CAPACITY * 2 },
      },
    });
    const spec = validateSpec(builtInFamilies, {
      name: `bench-${mode}`,
      datasets: [{ name: 'none' }],
      systems: [{ name: 'sys', strategy: 'hierarchical', engine: 'textrank' }],
      metrics: [{ name: 'booookscore', judge: { model: 'judge' }, mode, batchSize: 10 }],
      cache: false,
    });
    const size = mode === 'sentence' ? 1 : 10;
    const waiting = new Map<string, { left: number; done: () => void }>();
    const finishedAll = (run: { runId: string; tasks: NewTask[] }) =>
      new Promise<void>((done) => waiting.set(run.runId, { left: run.tasks.length, done }));
    const enqueue = (run: { runId: string; tasks: NewTask[] }) =>
      bus.enqueueMany(
        'verify',
        run.tasks.map((t) => taskMessage(t)),
      );
    const chat = new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db), cacheEnabled: false });
    const ctx = createRunContext({ families: builtInFamilies, db, bus, registry, chat });
    ctx.events = {
      async taskFinished(runId) {
        const w = waiting.get(runId);
        if (w && --w.left === 0) w.done();
      },
    };
    const worker = await startStageWorker(ctx, bus, 'verify', { concurrency: CAPACITY * 2 });
    // Warm-up, as a long-running worker is: database and HTTP connections open, and the task code
    // paths (claim, prompt, call, parse, persist) compiled, by annotating other summaries first.
    // None of its calls are counted.
    await Promise.all(Array.from({ length: CAPACITY * 2 }, () => db.query('SELECT 1')));
    const warmUp = await prepareRun(db, spec, size, WARM_UP_TASKS, 100_000);
    const warmed = finishedAll(warmUp);
    await enqueue(warmUp);
    await warmed;
    const results: Round[] = [];
    const rig: Rig = { db, fake, finishedAll, enqueue };
    // --profile <file>: a V8 CPU profile of the last timed round (of the last mode measured).
    for (let r = 0; r < rounds; r++)
      results.push(await timedRound(rig, spec, size, r, profile && r === rounds - 1 ? profile : undefined));
    await worker.stop();
    return results;
  } finally {
    await fake.close();
    await db.destroy();
  }
}

const pct = (x: number | null | undefined) => (x == null ? 'n/a' : (100 * x).toFixed(0));

export async function run(args: string[]) {
  // --only sentence|batched: measure one mode (the other's figures are then n/a).
  // --rounds N: timed runs per mode (default 3); the figures are those of the median run.
  const { values } = parseArgs({
    args,
    options: { only: { type: 'string' }, profile: { type: 'string' }, rounds: { type: 'string' } },
    allowPositionals: true,
  });
  if (values.only !== undefined && values.only !== 'sentence' && values.only !== 'batched')
    throw new Error(`--only: expected sentence or batched, got "${values.only}"`);
  const rounds = Number(values.rounds ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20)
    throw new Error(`--rounds: expected an integer from 1 to 20, got "${values.rounds}"`);
  const tdb = await createThrowawayDatabase('bench_annotation');
  try {
    const bus = createInProcessBus();
    const sentenceRounds =
      values.only === 'batched' ? [] : await measure('sentence', bus, tdb.url, rounds, values.profile);
    const batchedRounds =
      values.only === 'sentence' ? [] : await measure('batched', bus, tdb.url, rounds, values.profile);
    await bus.close();
    const skipped: Round = {
      calls: 0,
      wallMs: NaN,
      idealMs: NaN,
      ratio: NaN,
      maxActive: 0,
      toFirstRequestMs: NaN,
      toLastFullSlotRequestMs: NaN,
      extra: 0,
      floorMs: NaN,
      afterLastResponseMs: NaN,
      fakeBusy: null,
    };
    const median = (rs: Round[]) =>
      [...rs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((rs.length - 1) / 2)] ?? skipped;
    const all = (rs: Round[]) => (rs.length ? rs.map((r) => r.ratio.toFixed(3)).join(', ') : 'n/a');
    const sentence = median(sentenceRounds);
    const batched = median(batchedRounds);
    return {
      name: 'annotation-throughput',
      description: `BooookScore annotation of ${SUMMARIES} summaries x ${SENTENCES} sentences through the verify stage (tasks in PostgreSQL, in-process bus, judge via openai SDK -> fake server in a worker thread, latency ${LATENCY_MS} ms, capacity ${CAPACITY}); after a warm-up round of ${WARM_UP_TASKS} annotation tasks through the same worker, ${rounds} timed run(s) per mode, each of other summaries; figures of the median run; target wall <= 1.15 x ideal (calls x latency / capacity). Every call takes the full latency, so no client can beat the floor ceil(calls / capacity) x latency, reached only if the requests that get the busiest slots arrive at once and nothing follows the last response`,
      metrics: {
        'per-sentence calls': sentence.calls,
        'per-sentence wall s': sentence.wallMs / 1000,
        'per-sentence ideal s': sentence.idealMs / 1000,
        'per-sentence wall/ideal': sentence.ratio,
        'per-sentence wall/ideal, every run in order': all(sentenceRounds),
        'batched calls': batched.calls,
        'batched wall s': batched.wallMs / 1000,
        'batched ideal s': batched.idealMs / 1000,
        'batched wall/ideal': batched.ratio,
        'batched wall/ideal, every run in order': all(batchedRounds),
        'floor s: ceil(calls / capacity) x latency (per-sentence, batched)': `${sentence.floorMs / 1000}, ${batched.floorMs / 1000}`,
        'ms to first request at server (per-sentence, batched)': `${sentence.toFirstRequestMs}, ${batched.toFirstRequestMs}`,
        [`ms to request no. ${sentence.extra || '-'}, no. ${batched.extra || '-'} (the last to get a slot that serves one call more)`]: `${sentence.toLastFullSlotRequestMs}, ${batched.toLastFullSlotRequestMs}`,
        'ms after last response (per-sentence, batched)': `${sentence.afterLastResponseMs}, ${batched.afterLastResponseMs}`,
        'fake server thread busy % (per-sentence, batched)': `${pct(sentence.fakeBusy)}, ${pct(batched.fakeBusy)}`,
        'max concurrent at server': Math.max(
          0,
          ...[...sentenceRounds, ...batchedRounds].map((r) => r.maxActive),
        ),
      },
    };
  } finally {
    await tdb.drop();
  }
}
