import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import {
  createRun,
  createRunContext,
  DEFAULT_STAGE_CONCURRENCY,
  executeRun,
  validateSpec,
} from '@precis/engine';
import { importDataset, prepareImport } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import { builtInFamilies } from './built-in-families.js';

const VOCABULARY =
  'river storm keeper light harbour village council winter letter market bridge garden doctor teacher soldier engine station signal island forest mountain ledger lantern bell clock road school mill farmer sailor captain widow merchant tower'.split(
    ' ',
  );

// Deterministic documents of ~`words` words in sentences of 8-20 words (no randomness between runs).
export function syntheticDocuments(count: number, words = 300): string {
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  const lines: string[] = [];
  for (let d = 0; d < count; d++) {
    const sentences: string[] = [];
    for (let w = 0; w < words; ) {
      const len = 8 + (next() % 13);
      const body = Array.from({ length: len }, () => VOCABULARY[next() % VOCABULARY.length]!).join(' ');
      sentences.push(`${body[0]!.toUpperCase()}${body.slice(1)}.`);
      w += len;
    }
    lines.push(JSON.stringify({ id: `doc-${d}`, text: sentences.join(' ') }));
  }
  return `${lines.join('\n')}\n`;
}

// The three offline systems of the issue's measurement: ~3.7 tasks per (system, document).
function scaleSpec(dataset: string) {
  return validateSpec(builtInFamilies, {
    name: `scale-${dataset}`,
    seed: 7,
    datasets: [{ name: dataset }],
    systems: [
      {
        name: 'hier-textrank',
        strategy: 'hierarchical',
        engine: 'textrank',
        params: { chunkSize: 256, levelBudgets: [60, 120] },
      },
      {
        name: 'inc-textrank',
        strategy: 'incremental',
        engine: 'textrank',
        params: { chunkSize: 256, runningBudget: 120 },
      },
      {
        name: 'hier-lead',
        strategy: 'hierarchical',
        engine: 'lead',
        params: { chunkSize: 256, levelBudgets: [60, 120] },
      },
    ],
    metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
  });
}

async function timedRun(db: DataSource, docs: number, dir: string) {
  const file = join(dir, `docs-${docs}.jsonl`);
  writeFileSync(file, syntheticDocuments(docs));
  const dataset = `scale-${docs}`;
  await importDataset(db, { kind: 'jsonl', path: file, name: dataset });
  const bus = createInProcessBus();
  const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus });
  const started = performance.now();
  const { run } = await createRun(
    ctx,
    { spec: scaleSpec(dataset), file: 'run-scale', text: '' },
    { fresh: true },
  );
  const outcome = await executeRun(ctx, bus, run.id, { concurrency: DEFAULT_STAGE_CONCURRENCY });
  const wallMs = performance.now() - started;
  await bus.close();
  if (outcome.interrupted || outcome.progress.status !== 'completed')
    throw new Error(`run ${run.id} did not complete: ${JSON.stringify(outcome)}`);
  const [row] = (await db.query(
    `SELECT count(*)::int AS tasks, count(*) FILTER (WHERE status <> 'done')::int AS unfinished FROM tasks WHERE run_id = $1`,
    [run.id],
  )) as { tasks: number; unfinished: number }[];
  return { docs, tasks: Number(row!.tasks), unfinished: Number(row!.unfinished), wallMs };
}

async function withDatabase<T>(kind: string, fn: (db: DataSource) => Promise<T>): Promise<T> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'precis-scale-'));
    const db = await createDataSource({ pgliteDir: join(dir, 'db') });
    try {
      return await fn(db);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const tdb = await createThrowawayDatabase('bench_run_scale');
  const db = await createDataSource({ url: tdb.url });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
    await tdb.drop();
  }
}

// `npm run bench run-scale -- --docs 90,900,4500,9000 --db postgres,pglite`: offline runs of 3
// systems over N short documents; reports time per task at each size (target: flat within 25%).
export async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      // ~11 tasks per document: 90 -> ~1k tasks, 900 -> ~10k, 4500 -> ~50k, 9000 -> ~100k.
      docs: { type: 'string', default: '90,900,2000,4500,9000' },
      db: { type: 'string', default: 'postgres,pglite' },
      // Runs per size under this many tasks; the median is reported (a 1k-task run lasts ~1 s,
      // where this machine's jitter is +-10%).
      'rounds-below': { type: 'string', default: '20000' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const sizes = values.docs.split(',').map(Number);
  const metrics: Record<string, string | number> = {};
  const dir = mkdtempSync(join(tmpdir(), 'precis-scale-docs-'));
  try {
    for (const kind of values.db.split(',')) {
      const perTask: number[] = [];
      // An untimed run of the smallest size first: the first runs in a process also pay for JIT
      // and (PGlite) WASM warm-up, which showed as +25-50% per task at 1k tasks (a service is warm).
      await withDatabase(kind, (db) => timedRun(db, sizes[0]!, dir));
      for (const docs of sizes) {
        const rounds = docs * 11 < Number(values['rounds-below']) ? Number(values.rounds) : 1;
        const all: Awaited<ReturnType<typeof timedRun>>[] = [];
        for (let i = 0; i < rounds; i++) all.push(await withDatabase(kind, (db) => timedRun(db, docs, dir)));
        all.sort((a, b) => a.wallMs - b.wallMs);
        const r = all[Math.floor((all.length - 1) / 2)]!;
        const ms = r.wallMs / r.tasks;
        perTask.push(ms);
        metrics[`${kind} ${docs} docs: tasks, wall s (median of ${rounds}), ms/task`] =
          `${r.tasks}, ${(r.wallMs / 1000).toFixed(1)}, ${ms.toFixed(2)}${rounds > 1 ? ` (each: ${all.map((x) => (x.wallMs / x.tasks).toFixed(2)).join(', ')})` : ''}`;
        process.stderr.write(`${kind} ${docs} docs: ${r.tasks} tasks in ${(r.wallMs / 1000).toFixed(1)} s\n`);
      }
      metrics[`${kind} ms/task max/min`] = Math.max(...perTask) / Math.min(...perTask);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: 'run-scale',
    description:
      'offline run of 3 systems (hierarchical textrank, incremental textrank, hierarchical lead; heuristic BooookScore) over N generated 300-word documents, embedded runtime (in-process bus) on PostgreSQL and PGlite; targets: ms/task flat within 25% from 1k to 100k tasks, 2,000 documents < 60 s (PostgreSQL) and < 120 s (PGlite)',
    metrics,
  };
}
