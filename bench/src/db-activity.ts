// Where the database's share of a phase goes: the SQL statements processes sent (their
// precis_db_statements_total, or this process's own counter) and the backends waiting on a lock,
// sampled from pg_stat_activity on a connection of its own (not counted, not pooled).
import pg from 'pg';
import { cpuOf } from './process-cpu.js';

// precis_db_statements_total of the services listening on these HTTP ports, summed.
export async function statementsOf(ports: readonly number[]): Promise<number> {
  let total = 0;
  for (const port of ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const line = /^precis_db_statements_total (\d+)$/m.exec(text);
    if (!line) throw new Error(`no precis_db_statements_total at 127.0.0.1:${port}/metrics`);
    total += Number(line[1]);
  }
  return total;
}

export interface LockWaits {
  // Backend-milliseconds spent waiting on a lock (samples x interval).
  waitMs: number;
  // The statement that waited most often, what it waited on and for whom, with its share.
  top: string;
  // CPU seconds of the backends serving this database (the sampler's own excluded), seen at any
  // sample: PostgreSQL's share of the work itself, without checkpoints, autovacuum or other
  // databases, which the postgres processes' total also holds.
  backendCpuS: number;
}

// Each waiting statement with what it waits for and the statement of the backend holding it.
const WAITING = `SELECT format('%s, on %s held by: %s', left(regexp_replace(a.query, '\\s+', ' ', 'g'), 60),
    a.wait_event, coalesce(left(regexp_replace(b.query, '\\s+', ' ', 'g'), 60), '?')) AS query, count(*)::int AS n
  FROM pg_stat_activity a LEFT JOIN pg_stat_activity b ON b.pid = (pg_blocking_pids(a.pid))[1]
  WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' GROUP BY 1`;

const BACKENDS = `SELECT pid FROM pg_stat_activity
  WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`;

// Samples every everyMs until stop(): what waited and for how long in total, and the CPU of the
// database's backends.
export async function sampleLockWaits(url: string, everyMs = 50): Promise<{ stop(): Promise<LockWaits> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
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
      await readBackends(false);
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await readBackends(false);
      await client.end();
      const backendCpuS = [...backends.values()].reduce((a, b) => a + b.last - b.first, 0);
      const total = [...seen.values()].reduce((a, n) => a + n, 0);
      const [query, n] = [...seen].sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
      return {
        waitMs: total * everyMs,
        backendCpuS,
        top: total
          ? `${query} (${Math.round((100 * n) / total)}% of ${total} samples)`
          : `none in ${samples} samples`,
      };
    },
  };
}

export interface StatementFloor {
  readMs: number;
  writeMs: number;
  writeAsyncMs: number;
}

// PostgreSQL backend CPU per statement on this machine, on a connection of its own: a trivial
// read, a one-row UPDATE committed as every task write is (waiting for the WAL flush), and the
// same without that wait. What a task's statements cost before they do any work of their own.
export async function statementFloor(url: string, rounds = 1000): Promise<StatementFloor> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const perStatement = async (sql: string) => {
      const before = cpuOf(pid);
      for (let i = 1; i <= rounds; i++) await client.query(sql, [i]);
      return ((cpuOf(pid) - before) * 1000) / rounds;
    };
    // A regular table: a temporary one writes no WAL, so its commits would not wait for a flush.
    await client.query('CREATE TABLE bench_statement_floor (id int PRIMARY KEY, n int NOT NULL)');
    await client.query('INSERT INTO bench_statement_floor SELECT g, 0 FROM generate_series(1, $1) AS g', [
      rounds,
    ]);
    const write = 'UPDATE bench_statement_floor SET n = n + 1 WHERE id = $1';
    const readMs = await perStatement('SELECT $1::int AS n');
    const writeMs = await perStatement(write);
    await client.query('SET synchronous_commit = off');
    const writeAsyncMs = await perStatement(write);
    return { readMs, writeMs, writeAsyncMs };
  } finally {
    await client.query('DROP TABLE IF EXISTS bench_statement_floor').catch(() => undefined);
    await client.end();
  }
}
