// Where the database's share of a phase goes: the SQL statements processes sent (their
// precis_db_statements_total, or this process's own counter) and the backends waiting on a lock,
// sampled from pg_stat_activity on a connection of its own (not counted, not pooled).
import pg from 'pg';

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
}

// Each waiting statement with what it waits for and the statement of the backend holding it.
const WAITING = `SELECT format('%s, on %s held by: %s', left(regexp_replace(a.query, '\\s+', ' ', 'g'), 60),
    a.wait_event, coalesce(left(regexp_replace(b.query, '\\s+', ' ', 'g'), 60), '?')) AS query, count(*)::int AS n
  FROM pg_stat_activity a LEFT JOIN pg_stat_activity b ON b.pid = (pg_blocking_pids(a.pid))[1]
  WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' GROUP BY 1`;

// Samples every everyMs until stop(); what waited, and for how long in total.
export async function sampleLockWaits(url: string, everyMs = 50): Promise<{ stop(): Promise<LockWaits> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const r of (await client.query<{ query: string; n: number }>(WAITING)).rows)
        seen.set(r.query, (seen.get(r.query) ?? 0) + r.n);
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      const total = [...seen.values()].reduce((a, n) => a + n, 0);
      const [query, n] = [...seen].sort((a, b) => b[1] - a[1])[0] ?? ['none', 0];
      return {
        waitMs: total * everyMs,
        top: total
          ? `${query} (${Math.round((100 * n) / total)}% of ${total} samples)`
          : `none in ${samples} samples`,
      };
    },
  };
}
