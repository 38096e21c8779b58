import type { DataSource, EntityManager } from 'typeorm';

// Reads of bus_problems: the stage queues some process keeps failing to use (one row per process
// and stage, refreshed while the problem lasts).

// The problems seen in the last `freshSeconds` on the given stages, oldest first, each once.
export async function freshBusProblems(
  db: DataSource,
  stages: readonly string[],
  freshSeconds: number,
): Promise<string[]> {
  const rows: { problem: string }[] = await db.query(
    `SELECT problem FROM bus_problems
     WHERE stage = ANY($1::text[]) AND seen_at > now() - make_interval(secs => $2)
     GROUP BY problem ORDER BY MIN(since), problem`,
    [stages, freshSeconds],
  );
  return rows.map((r) => r.problem);
}

// Deletes the rows of one reporting process (all of them, or those of stages not in `keep`).
export async function deleteBusProblems(
  db: DataSource | EntityManager,
  reporter: string,
  keep?: readonly string[],
): Promise<void> {
  if (keep === undefined) await db.query('DELETE FROM bus_problems WHERE reporter = $1', [reporter]);
  else
    await db.query('DELETE FROM bus_problems WHERE reporter = $1 AND NOT (stage = ANY($2::text[]))', [
      reporter,
      keep,
    ]);
}

// Writes (or refreshes) one process's problem on one stage, seen now.
export async function upsertBusProblem(
  db: DataSource | EntityManager,
  row: { reporter: string; stage: string; problem: string; since: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO bus_problems (reporter, stage, problem, since, seen_at) VALUES ($1, $2, $3, $4, now())
           ON CONFLICT (reporter, stage) DO UPDATE
           SET problem = EXCLUDED.problem, since = EXCLUDED.since, seen_at = EXCLUDED.seen_at`,
    [row.reporter, row.stage, row.problem, row.since],
  );
}
