import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, generateApiKey } from '@precis/db';
import { createRun, createRunContext, executeRun, validateSpec } from '@precis/engine';
import { prepareImport } from '@precis/ingest';
import { chromium } from 'playwright-core';
import { builtInFamilies } from './built-in-families.js';
import { load, pct } from './http-load.js';
import { startServiceProcess } from './service-process.js';

// The REST API of a gateway process under load: `GET /api/v1/runs` (a page of 50 of 1,000 runs) and
// `GET /api/v1/runs/{id}/report`, `/view` and `/samples` pages of a real offline run whose judgments
// and per-summary metric values also hold 100,000 rows each, each asked --requests times by
// --concurrency clients at once (latency percentiles); then the web page's first render.
// Args: --requests <n> (default 2000) --concurrency <n> (default 32) --judgments <n> (default 100000).

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GATEWAY = resolve(repo, 'apps/gateway/dist/main.js');

async function seed(url: string, judgments: number, runs: number): Promise<string> {
  const db = await createDataSource({ url, runMigrations: true });
  const bus = createInProcessBus();
  try {
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db, bus });
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
    // Per-summary metric values the page's samples table pages through (one per judged system).
    await db.query(
      `INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
       SELECT s.run_id || ':bench-' || g || ':' || s.document_id || ':booookscore.0', s.run_id, 'bench-' || g,
              s.document_id, 'booookscore.0', (g % 100) / 100.0, '{}', 'engine:bench'
         FROM summaries s, generate_series(1, $2) g WHERE s.run_id = $1`,
      [run.id, judgments],
    );
    // What autovacuum does within a minute of a bulk insert: the visibility map lets the samples
    // count and page walk be index-only scans.
    await db.query('VACUUM ANALYZE metric_values');
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

// Milliseconds from navigation to the runs table, and to a run's first figure and first sample
// row (the key already stored), in Debian's Chromium; the median of 5 loads each.
async function firstRender(base: string, key: string, runId: string): Promise<Record<string, number>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(base);
    await page.evaluate(`localStorage.setItem('precis.apiKey', ${JSON.stringify(key)})`);
    const timed = async (url: string, ready: string[]) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        await page.goto('about:blank');
        const t = performance.now();
        await page.goto(url);
        for (const testid of ready) await page.getByTestId(testid).first().waitFor({ timeout: 60_000 });
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    return {
      'page runs list first render ms': await timed(base, ['run-row']),
      'page run first render ms': await timed(`${base}/#/runs/${runId}`, [
        'figure-BooookScore',
        'sample-row',
      ]),
    };
  } finally {
    await browser.close();
  }
}

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
      ['view', `/api/v1/runs/${runId}/view`],
      ['samples first page', `/api/v1/runs/${runId}/samples?limit=200`],
      ['samples last page', `/api/v1/runs/${runId}/samples?offset=${judgments - 200}&limit=200`],
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
    Object.assign(metrics, await firstRender(base, key, runId));
    return {
      name: 'rest-api',
      description: `gateway REST API, ${requests} GETs per route with ${concurrency} in flight: a page of 50 of 1,000 runs; the report, page view and samples pages of an offline run with ${judgments} judgments and ${judgments} per-summary values (target p95 < 300 ms); the web page's time to first render in Chromium (median of 5)`,
      metrics,
    };
  } finally {
    gateway?.kill('SIGTERM');
    await tdb.drop().catch(() => {});
  }
}
