import { parseArgs } from 'node:util';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import {
  createTypeOrmLlmStore,
  LimiterRegistry,
  LlmClient,
  type LlmStore,
  loadModelRegistry,
  MemoryLlmStore,
} from '@precis/llm';
import { type FakeLlmStats, spawnFakeLlmProcess, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { inParallel } from './in-parallel.js';

type StoreKind = 'memory' | 'pg' | 'pg-batch' | 'pglite' | 'pglite-batch';
const STORE_KINDS: StoreKind[] = ['memory', 'pg', 'pg-batch', 'pglite', 'pglite-batch'];

interface Variant {
  calls_per_s: number;
  utilization: number;
  server_slot_utilization: number;
  server_max_active: number;
  client_cpu_ms_per_call: number;
  errors: number;
  ledger_rows: number;
  wall_s: number;
}

// How close the client keeps a capacity-limited endpoint to saturation: fake server with
// `capacity` slots of `latency` ms each, `calls` uncached chat calls from `clients` concurrent
// callers through LlmClient (limits, retries, ledger). Ideal rate = capacity / latency;
// utilization = achieved calls/s / ideal. Repeated per ledger store, since writes are in the loop.
export async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      calls: { type: 'string', default: '10000' },
      capacity: { type: 'string', default: '64' },
      latency: { type: 'string', default: '100' },
      clients: { type: 'string', default: '128' },
      stores: { type: 'string', default: 'memory,pg,pg-batch' },
      // process: the fake server in its own process (as a real endpoint would be);
      // inproc: same event loop as the client (measures both sharing one core).
      server: { type: 'string', default: 'process' },
    },
    strict: false,
  });
  const calls = Number(values.calls);
  const capacity = Number(values.capacity);
  const latencyMs = Number(values.latency);
  const clients = Math.max(capacity, Number(values.clients));
  const stores = String(values.stores)
    .split(',')
    .map((s) => s.trim()) as StoreKind[];
  for (const s of stores) {
    if (!STORE_KINDS.includes(s))
      throw new Error(`--stores: unknown store "${s}" (known: ${STORE_KINDS.join(', ')})`);
  }
  const serverMode = values.server === 'inproc' ? 'inproc' : 'process';
  const ideal = capacity / (latencyMs / 1000);
  const metrics: Record<string, number | string> = {
    calls,
    capacity,
    latency_ms: latencyMs,
    client_concurrency: clients,
    server: serverMode,
    ideal_calls_per_s: ideal,
  };
  metrics.target_utilization = 0.95;
  for (const kind of stores) {
    const v = await runVariant(kind, { calls, capacity, latencyMs, clients, ideal, serverMode });
    // Headline: the first store measured (memory by default), then every store in detail.
    metrics.utilization ??= v.utilization;
    for (const [k, x] of Object.entries(v)) metrics[`${kind}.${k}`] = x;
  }
  return {
    name: 'llm-utilization',
    description: `LlmClient vs fake server (capacity ${capacity}, ${latencyMs} ms): ${calls} uncached calls, ${clients} callers; utilization = calls/s ÷ (capacity/latency), target ≥ 0.95`,
    metrics,
  };
}

async function openStore(kind: StoreKind): Promise<{ store: LlmStore; close: () => Promise<void> }> {
  if (kind === 'memory') return { store: new MemoryLlmStore(), close: async () => {} };
  const batch = kind.endsWith('-batch') ? { maxRows: 500, maxDelayMs: 50 } : undefined;
  let ds: DataSource;
  let drop = async () => {};
  if (kind.startsWith('pglite')) ds = await createDataSource({ inMemory: true });
  else {
    const db = await createThrowawayDatabase('precis_bench_llm');
    ds = await createDataSource({ url: db.url });
    drop = () => db.drop();
  }
  return {
    store: createTypeOrmLlmStore(ds, { batch }),
    close: async () => {
      await ds.destroy();
      await drop();
    },
  };
}

// A client of the fake endpoint with its own limiters and no cache: every call goes out.
function benchClient(baseURL: string, capacity: number, store: LlmStore): LlmClient {
  const registry = loadModelRegistry({
    models: {
      bench: {
        baseURL,
        model: 'bench-model',
        maxConcurrency: capacity,
        timeoutMs: 30_000,
        maxRetries: 2,
        pricePer1MInput: '0.15',
        pricePer1MOutput: '0.6',
      },
    },
  });
  return new LlmClient({
    registry,
    store,
    cacheEnabled: false,
    limiters: new LimiterRegistry(),
  });
}

async function runVariant(
  kind: StoreKind,
  o: {
    calls: number;
    capacity: number;
    latencyMs: number;
    clients: number;
    ideal: number;
    serverMode: string;
  },
): Promise<Variant> {
  const server: BenchServer =
    o.serverMode === 'inproc'
      ? await inProcess(o.capacity, o.latencyMs)
      : await spawnFakeLlmProcess(['--capacity', String(o.capacity), '--latency', String(o.latencyMs)]);
  const { store, close } = await openStore(kind);
  try {
    const client = benchClient(server.baseURL, o.capacity, store);
    // Warm-up: connections and JIT, excluded from the measurement.
    await Promise.all(
      Array.from({ length: o.capacity }, (_, i) =>
        client.chat({ model: 'bench', messages: [{ role: 'user', content: `warm ${i}` }] }),
      ),
    );
    await client.close();
    await server.resetStats();
    let errors = 0;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    await inParallel(o.calls, o.clients, (i) =>
      client
        .chat({
          model: 'bench',
          messages: [{ role: 'user', content: `summarize item ${i}` }],
          taskId: `b${i}`,
        })
        .catch(() => {
          errors++;
        }),
    );
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    await client.close();
    const st = await server.stats();
    const totals = await store.totals();
    const rate = o.calls / (wallMs / 1000);
    return {
      calls_per_s: round(rate, 1),
      utilization: round(rate / o.ideal, 4),
      server_slot_utilization: round(st.busySlotMs / (o.capacity * wallMs), 4),
      server_max_active: st.maxActive,
      // CPU of this (client) process per call: the budget at the ideal rate is 1000 / ideal ms per core.
      client_cpu_ms_per_call: round((cpu.user + cpu.system) / 1000 / o.calls, 3),
      errors,
      ledger_rows: totals.calls - o.capacity,
      wall_s: round(wallMs / 1000, 2),
    };
  } finally {
    await server.close();
    await close();
  }
}

// The fake server, in this process or its own (spawnFakeLlmProcess fits this shape).
interface BenchServer {
  baseURL: string;
  stats(): Promise<FakeLlmStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

async function inProcess(capacity: number, latencyMs: number): Promise<BenchServer> {
  const s = await startFakeLlmServer({ capacity, latencyMs, maxLoggedRequests: 100 });
  return {
    baseURL: s.baseURL,
    stats: async (): Promise<FakeLlmStats> => s.stats(),
    resetStats: async () => s.resetStats(),
    close: () => s.close(),
  };
}
