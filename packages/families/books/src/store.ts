import { RESULT_CALLS_SQL } from '@precis/engine/family';
import type { DataSource } from 'typeorm';

// The books family's reads of the ledger (the engine's stores hold the rest).

export interface BooksUsageRow {
  stage: string;
  system: string;
  metric: string;
  calls: unknown;
  tin: unknown;
  tout: unknown;
  tcached: unknown;
  treasoning: unknown;
  cost: unknown;
}

// Summarizer calls per system; judge calls per system and BooookScore metric (the task's kind
// keeps other judges, e.g. dimension judges, out of these rows). Each call the results used,
// once, at its list cost: the same figures whatever faults or cache timing the run met.
export async function booksUsageRows(db: DataSource, runId: string): Promise<BooksUsageRow[]> {
  return db.query(
    `SELECT t.stage AS stage, split_part(c.task_id, ':', 3) AS system,
            CASE WHEN t.kind = 'booookscore-batch' THEN split_part(c.task_id, ':', 5) ELSE '' END AS metric,
            SUM(c.calls) AS calls, COALESCE(SUM(c.tokens_in), 0) AS tin, COALESCE(SUM(c.tokens_out), 0) AS tout,
            COALESCE(SUM(c.tokens_cached), 0) AS tcached, COALESCE(SUM(c.tokens_reasoning), 0) AS treasoning,
            COALESCE(SUM(c.list_cost_usd), 0) AS cost
     FROM ${RESULT_CALLS_SQL} c JOIN tasks t ON t.id = c.task_id
     WHERE t.stage = 'summarize' OR t.kind = 'booookscore-batch'
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [runId],
  );
}
