// A child process of a bench (db-activity.ts sampleBackends): samples the backends of one database
// every everyMs, from pg_stat_activity and /proc, until told to stop, then replies with the sums.
// Messages: { url, everyMs } -> { ready }; { stop } -> { result: LockWaits }; any failure -> { error }.
import pg from 'pg';
import type { LockWaits } from './db-activity.js';
import { cpuOf } from './process-cpu.js';

// Each waiting statement with what it waits for and the statement of the backend holding it.
const WAITING = `SELECT format('%s, on %s held by: %s', left(regexp_replace(a.query, '\\s+', ' ', 'g'), 60),
    a.wait_event, coalesce(left(regexp_replace(b.query, '\\s+', ' ', 'g'), 60), '?')) AS query, count(*)::int AS n
  FROM pg_stat_activity a LEFT JOIN pg_stat_activity b ON b.pid = (pg_blocking_pids(a.pid))[1]
  WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' GROUP BY 1`;

const BACKENDS = `SELECT pid FROM pg_stat_activity
  WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`;

async function startSampling(url: string, everyMs: number): Promise<{ stop(): Promise<LockWaits> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const [{ pid: ownPid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
  const ownStart = { process: cpuOf(process.pid), backend: cpuOf(ownPid) };
  const seen = new Map<string, number>();
  // Per backend pid: CPU when first seen (0 for one that connected after the start) and last read.
  const backends = new Map<number, { first: number; last: number }>();
  const readBackends = async (starting: boolean) => {
    const { rows } = await client.query<{ pid: number }>(BACKENDS);
    for (const { pid } of rows) {
      const cpu = cpuOf(pid);
      const b = backends.get(pid) ?? { first: starting ? cpu : 0, last: cpu };
      b.last = Math.max(b.last, cpu);
      backends.set(pid, b);
    }
  };
  await readBackends(true);
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const r of (await client.query<{ query: string; n: number }>(WAITING)).rows)
        seen.set(r.query, (seen.get(r.query) ?? 0) + r.n);
      // CPU at every fifth sample: a backend leaving mid-phase (an idle pool connection) used
      // next to none in its last moments, and the sampling costs half as much.
      if (++samples % 5 === 0) await readBackends(false);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await readBackends(false);
      const samplerBackendCpuS = cpuOf(ownPid) - ownStart.backend;
      await client.end();
      const total = [...seen.values()].reduce((a, n) => a + n, 0);
      const [query, n] = [...seen].sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
      return {
        waitMs: total * everyMs,
        backendCpuS: [...backends.values()].reduce((a, b) => a + b.last - b.first, 0),
        top: total
          ? `${query} (${Math.round((100 * n) / total)}% of ${total} samples)`
          : `none in ${samples} samples`,
        samplerCpuS: cpuOf(process.pid) - ownStart.process,
        samplerBackendCpuS,
      };
    },
  };
}

const fail = (err: unknown) => {
  process.send?.({ error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
};

// The bench ended without stop() (it failed): nothing left to sample for.
process.once('disconnect', () => process.exit(0));

process.once('message', (start: { url: string; everyMs: number }) => {
  startSampling(start.url, start.everyMs).then((sampler) => {
    process.once('message', () => {
      sampler.stop().then((result) => process.send?.({ result }, () => process.exit(0)), fail);
    });
    process.send?.({ ready: true });
  }, fail);
});
