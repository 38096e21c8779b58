import type { DataSource } from 'typeorm';

export interface TaskResultRow {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
}

// A run's tasks of the given kinds by id, with their status and result: what a family's scorer
// reads its steps' and judges' outcomes from.
export async function taskResultsByKind(
  db: DataSource,
  runId: string,
  kinds: readonly string[],
): Promise<Map<string, TaskResultRow>> {
  const rows: TaskResultRow[] = await db.query(
    'SELECT id, status, result FROM tasks WHERE run_id = $1 AND kind = ANY($2::text[])',
    [runId, [...kinds]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
