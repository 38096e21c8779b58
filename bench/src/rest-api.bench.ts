import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, generateApiKey } from '@precis/db';
import { createRun, createRunContext, executeRun, validateSpec } from '@precis/engine';
import { builtInFamilies } from './built-in-families.js';
import { startServiceProcess } from './service-process.js';

// The REST API of a gateway process under load: `GET /api/v1/runs` (a page of 50 of 1,000 runs) and
// `GET /api/v1/runs/{id}/report` of a real offline run whose judgments table also holds 100,000
// rows, each asked --requests times by --concurrency clients at once; latency percentiles.
// Args: --requests <n> (default 2000) --concurrency <n> (default 32) --judgments <n> (default 100000).

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GATEWAY = resolve(repo, 'apps/gateway/dist/main.js');

async function seed(url: string, judgments: number, runs: number): Promise<string> {
  const db = await createDataSource({ url, runMigrations: true });
  const bus = createInProcessBus();
  try {
    const ctx = createRunContext({ families: builtInFamilies, db, bus });
    const spec = validateSpec(builtInFamilies, {
      name: 'rest-bench',
      datasets: [
        { name: 'book', kind: 'text', path: resolve(repo, 'examples/data/the-lighthouse-keeper.md') },
      ],
      systems: [
        {
          name: 'hier-textrank',
          strategy: 'hierarchical',
          engine: 'textrank',
          params: { chunkSize: 256, levelBudgets: [60, 120] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const { run } = await createRun(ctx, { spec, file: 'bench', text: '' });
    await executeRun(ctx, bus, run.id, { concurrency: 4 });
    // Judgments of the run's summary (one per sentence verdict) and finished runs to page through.
    await db.query(
      `INSERT INTO judgments (id, run_id, summary_id, system, metric, unit, status, verdict, judge, template_version, task_id)
       SELECT s.id || ':bench:' || g, s.run_id, s.id, s.system, 'booookscore.0', g, 'ok', '{"confusing": false}', 'engine:bench', NULL, 'bench'
         FROM summaries s, generate_series(1, $2) g WHERE s.run_id = $1`,
      [run.id, judgments],
    );
    await db.query(
      `INSERT INTO runs (name, status, spec, spec_sha256, created_at)
       SELECT 'filler-' || g, 'completed', spec, spec_sha256 || g, now() - g * interval '1 second' FROM runs, generate_series(1, $1) g
        WHERE runs.id = $2`,
      [runs - 1, run.id],
    );
    return run.id;
  } finally {
    await bus.close();
    await db.destroy();
  }
}

// `requests` GETs, `concurrency` in flight at once; each latency in ms.
async function load(url: string, key: string, requests: number, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < requests) {
      next++;
      const t = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      requests: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '32' },
      judgments: { type: 'string', default: '100000' },
    },
    strict: false,
  });
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const judgments = Number(values.judgments);
  const tdb = await createThrowawayDatabase('bench_rest');
  const key = generateApiKey();
  let gateway: ChildProcess | undefined;
  try {
    const runId = await seed(tdb.url, judgments, 1000);
    const port = 19_400 + Math.floor(Math.random() * 500);
    gateway = await startServiceProcess(
      GATEWAY,
      {
        DATABASE_URL: tdb.url,
        DATABASE_RUN_MIGRATIONS: 'false',
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        PRECIS_BUS_PREFIX: `bench_rest_${randomBytes(3).toString('hex')}`,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        GRPC_PORT: String(port + 1),
        PRECIS_API_KEYS: key,
        LOG_LEVEL: 'warn',
      },
      'gateway',
    );
    const base = `http://127.0.0.1:${port}`;
    const metrics: Record<string, number> = {};
    for (const [name, path] of [
      ['list', '/api/v1/runs'],
      ['report', `/api/v1/runs/${runId}/report`],
    ] as const) {
      await load(`${base}${path}`, key, 50, 4);
      const started = performance.now();
      const times = await load(`${base}${path}`, key, requests, concurrency);
      const seconds = (performance.now() - started) / 1000;
      Object.assign(metrics, {
        [`${name} p50 ms`]: pct(times, 50),
        [`${name} p95 ms`]: pct(times, 95),
        [`${name} p99 ms`]: pct(times, 99),
        [`${name} requests/s`]: requests / seconds,
      });
    }
    return {
      name: 'rest-api',
      description: `gateway REST API, ${requests} GETs per route with ${concurrency} in flight: a page of 50 of 1,000 runs, and the report of an offline run with ${judgments} judgments (target p95 < 300 ms)`,
      metrics,
    };
  } finally {
    gateway?.kill('SIGTERM');
    await tdb.drop().catch(() => {});
  }
}
