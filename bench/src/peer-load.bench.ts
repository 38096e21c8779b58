import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { intFlag } from './flags.js';
import { CALLS_PER_PRODUCT, idealMs } from './peer-load/job.js';
import { log, type VariantResult } from './peer-load/measure.js';
import { type ClusterResult, runCluster } from './peer-load/precis-cluster.js';
import { type EmbeddedResult, runEmbedded } from './peer-load/precis-embedded.js';
import {
  defaultInstallDir,
  ensurePromptfoo,
  NODE_VERSION,
  PROMPTFOO_VERSION,
} from './peer-load/promptfoo-install.js';
import { runPromptfoo } from './peer-load/promptfoo-run.js';
import { callsCheck, figuresTable, ratioMetrics, variantMetrics } from './peer-load/report.js';

// The same judge job (SummEval-OP, 7-dimension Op-I judge, one call per (summary, dimension))
// against one fake OpenAI-compatible endpoint (its own process, capacity 64, latency 100 ms),
// through Precis embedded (`precis run`), Precis as services (`precis run --remote`) and
// promptfoo (the requests Precis sent, as promptfoo tests) at its default and swept concurrency.
// Args: --products <n> (default 22: 2,002 calls) or --calls <n> (rounded up to whole products),
// --capacity 64 --latency 100, --concurrency 16,32,64,128 (promptfoo sweep), --only
// embedded,cluster,promptfoo, --verifiers 1 --worker-concurrency 512 (cluster), --profile <dir>
// (V8 CPU profile of the embedded `precis run`), --promptfoo-dir <dir> (install cache), --node
// peer|machine: Precis on promptfoo's Node (default: both tools on one Node) or on this one.

const PARTS = ['embedded', 'cluster', 'promptfoo'] as const;
type Part = (typeof PARTS)[number];

function options(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      products: { type: 'string' },
      calls: { type: 'string' },
      capacity: { type: 'string', default: '64' },
      latency: { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '16,32,64,128' },
      only: { type: 'string', default: PARTS.join(',') },
      verifiers: { type: 'string', default: '1' },
      'worker-concurrency': { type: 'string', default: '512' },
      profile: { type: 'string' },
      'promptfoo-dir': { type: 'string', default: defaultInstallDir() },
      node: { type: 'string', default: 'peer' },
    },
    strict: true,
  });
  const int = (name: string, v: string | undefined, min = 1) => intFlag('peer-load', name, v, min);
  const products = values.products
    ? int('products', values.products)
    : values.calls
      ? Math.ceil(int('calls', values.calls) / CALLS_PER_PRODUCT)
      : 22;
  if (products > 32)
    throw new Error(
      `peer-load: SummEval-OP has 32 products (${32 * CALLS_PER_PRODUCT} calls); got ${products}`,
    );
  if (values.node !== 'peer' && values.node !== 'machine')
    throw new Error(`peer-load: --node takes peer or machine, got "${values.node}"`);
  const only = values.only.split(',').map((s) => s.trim());
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`peer-load: --only takes ${PARTS.join(', ')}; unknown: ${unknown.join(', ')}`);
  return {
    job: {
      products,
      capacity: int('capacity', values.capacity),
      latencyMs: int('latency', values.latency, 0),
    },
    sweep: values.concurrency
      .split(',')
      .filter(Boolean)
      .map((c) => int('concurrency', c)),
    only: new Set(only as Part[]),
    cluster: {
      verifiers: int('verifiers', values.verifiers),
      workerConcurrency: int('worker-concurrency', values['worker-concurrency']),
    },
    node: values.node,
    profile: values.profile,
    promptfooDir: values['promptfoo-dir'],
  };
}

async function promptfooVariants(
  opts: ReturnType<typeof options>,
  requests: EmbeddedResult['server']['requests'],
): Promise<VariantResult[]> {
  const install = ensurePromptfoo(opts.promptfooDir);
  const out: VariantResult[] = [await runPromptfoo(install, opts.job, requests, null)];
  for (const j of opts.sweep) out.push(await runPromptfoo(install, opts.job, requests, j));
  return out;
}

function embeddedMetrics(e: EmbeddedResult | undefined): Record<string, string | number> {
  if (!e) return {};
  return {
    'precis embedded: timeline (s after spawn)': e.timeline,
    'precis --version wall s (Node + CLI modules)': Number((e.probes.versionMs / 1000).toFixed(2)),
    'precis datasets ls on a fresh PRECIS_HOME wall s (+ PGlite create, migrations)': Number(
      (e.probes.freshHomeMs / 1000).toFixed(2),
    ),
  };
}

// Precis runs on promptfoo's Node unless --node machine: like for like, and Node 22 keeps the
// CLI's compiled modules between starts (apps/cli/bin/precis.js), which Node 20 cannot.
function precisNode(opts: ReturnType<typeof options>): { path: string; version: string } {
  const path = opts.node === 'peer' ? ensurePromptfoo(opts.promptfooDir).node : process.execPath;
  const res = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (res.status !== 0)
    throw new Error(`peer-load: \`${path} --version\` failed: ${res.stderr || res.error?.message}`);
  return { path, version: res.stdout.trim() };
}

export async function run(args: string[]) {
  const opts = options(args);
  const { job } = opts;
  const node = precisNode(opts);
  log(`precis runs on node ${node.version} (${node.path})`);
  const load0 = loadavg()[0]!;
  log(
    `job: ${job.products} products x ${CALLS_PER_PRODUCT} judge calls; endpoint capacity ${job.capacity}, latency ${job.latencyMs} ms`,
  );
  // Precis embedded runs even with --only promptfoo: its requests are promptfoo's tests.
  const embedded =
    opts.only.has('embedded') || opts.only.has('promptfoo')
      ? await runEmbedded(job, node.path, opts.profile)
      : undefined;
  const cluster: ClusterResult | undefined = opts.only.has('cluster')
    ? await runCluster(job, { ...opts.cluster, node: node.path })
    : undefined;
  const promptfoo =
    opts.only.has('promptfoo') && embedded ? await promptfooVariants(opts, embedded.server.requests) : [];
  const variants = [embedded, cluster, ...promptfoo].filter((v): v is VariantResult => v !== undefined);
  const calls = variants[0]?.server.judgeCalls ?? job.products * CALLS_PER_PRODUCT;
  process.stderr.write(`\n${figuresTable(variants, job, calls)}\n\n`);
  const metrics: Record<string, number | string> = {
    'products (SummEval-OP)': job.products,
    'judge calls per run': calls,
    'ideal s (calls x latency / capacity)': Number((idealMs(calls, job) / 1000).toFixed(3)),
    'calls at the fake server': callsCheck(variants),
    ...ratioMetrics(embedded, cluster, promptfoo),
    ...embeddedMetrics(embedded),
    ...(cluster ? { 'precis cluster: timeline (s after submission)': cluster.timeline } : {}),
  };
  for (const v of variants) Object.assign(metrics, variantMetrics(v, job, calls));
  metrics['promptfoo version (node)'] = promptfoo.length
    ? `${PROMPTFOO_VERSION} (${NODE_VERSION})`
    : 'not run';
  metrics["precis node (--node peer: promptfoo's; machine: this one)"] =
    `${node.version} (--node ${opts.node})`;
  metrics['load average 1 min (start, end)'] = `${load0.toFixed(2)}, ${loadavg()[0]!.toFixed(2)}`;
  return {
    name: 'peer-load',
    description: `one judge job (${calls} chat calls, SummEval-OP x 7-dimension Op-I judge, 1 sample) against a fake endpoint (capacity ${job.capacity}, latency ${job.latencyMs} ms) through Precis embedded, Precis cluster and promptfoo ${PROMPTFOO_VERSION} (default and -j ${opts.sweep.join('/')}); wall time of each whole command, each tool's own duration, and promptfoo / Precis ratios (targets: embedded >= 2.5x faster than promptfoo at its best, >= 15x than at its default)`,
    metrics,
  };
}
