import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDataSource, createThrowawayDatabase, generateApiKey } from '@precis/db';
import { load, pct } from './http-load.js';
import { startServiceProcess } from './service-process.js';

// The samples table's server-side filters and sorts through a gateway process's REST API, on a
// run of --systems x --documents x --metrics per-summary values (10 x 1,000 x 10 = 100,000 by
// default, 1 in 40 failed, i.e. null) beside another run as large: each query kind asked
// --requests times by --concurrency clients at once (latency percentiles; target p95 < 300 ms),
// and one document side by side. Args: --requests <n> (default 300) --concurrency <n> (default 4)
// --systems, --documents, --metrics.

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GATEWAY = resolve(repo, 'apps/gateway/dist/main.js');

interface Shape {
  systems: number;
  documents: number;
  metrics: number;
}

// One run's values: ten systems' summaries of every document, each scored on every metric. A
// value is a deterministic spread in [0, 100); half the metrics are judged, half computed.
async function seedRun(db: Awaited<ReturnType<typeof createDataSource>>, name: string, shape: Shape) {
  const systems = Array.from({ length: shape.systems }, (_, i) => ({
    name: `sys-${String(i).padStart(2, '0')}`,
    strategy: 'opinion',
    engine: 'lead',
  }));
  const spec = {
    name,
    datasets: [{ name: 'bench-docs', kind: 'jsonl', path: 'bench.jsonl' }],
    systems,
    metrics: [],
  };
  const [run] = await db.query(
    `INSERT INTO runs (name, status, spec, spec_sha256) VALUES ($1, 'completed', $2, $1) RETURNING id`,
    [name, JSON.stringify(spec)],
  );
  await db.query(
    `INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
     SELECT $1::text || ':' || s.name || ':' || d.id || ':' || m.name, $1::uuid, s.name, d.id, m.name,
            CASE WHEN h % 40 = 0 THEN NULL ELSE (h % 10000) / 100.0 END,
            CASE WHEN h % 40 = 0 THEN '{"failure": "no parseable score"}'::jsonb ELSE '{}'::jsonb END,
            CASE WHEN m.i % 2 = 0 THEN 'model:judge bench.judge@1' ELSE 'engine:rouge@1' END
       FROM (SELECT 'sys-' || lpad(g::text, 2, '0') AS name FROM generate_series(0, $2 - 1) g) s
      CROSS JOIN documents d
      CROSS JOIN (SELECT g AS i, 'metric-' || lpad(g::text, 2, '0') AS name FROM generate_series(0, $3 - 1) g) m
      CROSS JOIN LATERAL (SELECT abs(hashtext(s.name || d.id::text || m.name)::bigint) AS h) x`,
    [run.id, shape.systems, shape.metrics],
  );
  await db.query(
    `INSERT INTO summaries (id, run_id, system, document_id, text, final_step, producer)
     SELECT $1::text || ':' || s.name || ':' || d.id, $1::uuid, s.name, d.id, repeat(s.name || ' summarizes ' || d.external_id || '. ', 12),
            'o/final', 'engine:lead'
       FROM (SELECT 'sys-' || lpad(g::text, 2, '0') AS name FROM generate_series(0, $2 - 1) g) s CROSS JOIN documents d`,
    [run.id, shape.systems],
  );
  return run.id as string;
}

async function seed(url: string, shape: Shape): Promise<string> {
  const db = await createDataSource({ url, runMigrations: true });
  try {
    const [ds] = await db.query(
      `INSERT INTO datasets (name, kind, source_path, source_sha256) VALUES ('bench-docs', 'jsonl', 'bench.jsonl', 'x') RETURNING id`,
    );
    await db.query(
      `INSERT INTO documents (dataset_id, external_id, ordinal, text)
       SELECT $1, 'doc-' || lpad(g::text, 5, '0'), g, 'Reviews of product ' || g FROM generate_series(0, $2 - 1) g`,
      [ds.id, shape.documents],
    );
    const runId = await seedRun(db, 'samples-bench', shape);
    await seedRun(db, 'samples-bench-other', shape);
    // What autovacuum does within a minute of a bulk insert (visibility map, statistics).
    await db.query('VACUUM ANALYZE');
    return runId;
  } finally {
    await db.destroy();
  }
}

// Each query kind: the samples route's query string (a page of 200), or another path.
function queryKinds(runId: string, shape: Shape): [string, string][] {
  const samples = (q: string) => `/api/v1/runs/${runId}/samples?limit=200${q ? `&${q}` : ''}`;
  const deep = Math.floor((shape.systems * shape.documents * shape.metrics) / 2);
  const doc = `doc-${String(Math.floor(shape.documents / 2)).padStart(5, '0')}`;
  return [
    ['first page', samples('')],
    ['system, sort value desc', samples('system=sys-03&sort=value&order=desc')],
    ['metric and range, sort value', samples('metric=metric-04&min=20&max=60&sort=value')],
    ['failed', samples('failed=true')],
    ['failed, sort document desc', samples('failed=true&sort=document&order=desc')],
    ['sort document, middle page', samples(`sort=document&offset=${deep}`)],
    ['sort value desc, middle page', samples(`sort=value&order=desc&offset=${deep}`)],
    ['sort metric desc', samples('sort=metric&order=desc')],
    ['sort producedBy', samples('sort=producedBy')],
    ['side by side', `/api/v1/runs/${runId}/side-by-side/${doc}`],
  ];
}

export async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      requests: { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '4' },
      systems: { type: 'string', default: '10' },
      documents: { type: 'string', default: '1000' },
      metrics: { type: 'string', default: '10' },
    },
    strict: false,
  });
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const shape = {
    systems: Number(values.systems),
    documents: Number(values.documents),
    metrics: Number(values.metrics),
  };
  const total = shape.systems * shape.documents * shape.metrics;
  const tdb = await createThrowawayDatabase('bench_samples');
  const key = generateApiKey();
  let gateway: ChildProcess | undefined;
  try {
    const started = performance.now();
    const runId = await seed(tdb.url, shape);
    const seedSeconds = (performance.now() - started) / 1000;
    const port = 19_900 + Math.floor(Math.random() * 500);
    gateway = await startServiceProcess(
      GATEWAY,
      {
        DATABASE_URL: tdb.url,
        DATABASE_RUN_MIGRATIONS: 'false',
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        PRECIS_BUS_PREFIX: `bench_samples_${randomBytes(3).toString('hex')}`,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        GRPC_PORT: String(port + 1),
        PRECIS_API_KEYS: key,
        LOG_LEVEL: 'warn',
      },
      'gateway',
    );
    const base = `http://127.0.0.1:${port}`;
    const metrics: Record<string, number> = { 'seed s': seedSeconds };
    let worstP95 = 0;
    for (const [name, path] of queryKinds(runId, shape)) {
      await load(`${base}${path}`, key, 20, concurrency);
      const t = performance.now();
      const times = await load(`${base}${path}`, key, requests, concurrency);
      const seconds = (performance.now() - t) / 1000;
      if (name !== 'side by side') worstP95 = Math.max(worstP95, pct(times, 95));
      Object.assign(metrics, {
        [`${name} p50 ms`]: pct(times, 50),
        [`${name} p95 ms`]: pct(times, 95),
        [`${name} requests/s`]: requests / seconds,
      });
    }
    metrics['samples worst p95 ms'] = worstP95;
    return {
      name: 'samples',
      description: `gateway REST samples route on a run of ${total} per-summary values (${shape.systems} systems x ${shape.documents} documents x ${shape.metrics} metrics, 1 in 40 failed) beside another as large: a page of 200 per query kind (filters by system, metric, range, failed; sorts by value, document, metric, producer; middle pages at offset ${total / 2}) and one document side by side, ${requests} GETs each with ${concurrency} in flight (target p95 < 300 ms)`,
      metrics,
    };
  } finally {
    gateway?.kill('SIGTERM');
    await tdb.drop().catch(() => {});
  }
}
