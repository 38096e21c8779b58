// Where the database's share of a phase goes: the SQL statements processes sent (their
// precis_db_statements_total, or this process's own counter) and the backends waiting on a lock,
// sampled from pg_stat_activity on a connection of its own (not counted, not pooled) by a process
// of its own (backend-sampler.ts).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  // CPU seconds of the sampling itself: its process, and its own backend (in the postgres total).
  samplerCpuS: number;
  samplerBackendCpuS: number;
}

// Samples the database's backends every everyMs until stop() (lock waits and CPU), in a process of
// its own: reading /proc every 50 ms in this one cost 0.6 of its 5.5 CPU s (kgds-verify, 1 verifier).
export async function sampleBackends(url: string, everyMs = 50): Promise<{ stop(): Promise<LockWaits> }> {
  const child = fork(fileURLToPath(new URL('./backend-sampler.js', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the backend sampler exited (code ${code})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        const reply = m as Record<string, unknown>;
        if (typeof reply.error === 'string') reject(new Error(`backend sampler: ${reply.error}`));
        else resolve(reply);
      });
    });
  const ready = next();
  child.send({ url, everyMs });
  await ready;
  // A bench that fails before stop() still exits; the sampler then exits on the disconnect.
  child.unref();
  child.channel?.unref();
  return {
    async stop() {
      child.channel?.ref();
      const done = next();
      child.send({ stop: true });
      return (await done).result as LockWaits;
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
