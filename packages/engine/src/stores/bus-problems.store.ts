import type { DataSource } from 'typeorm';

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
