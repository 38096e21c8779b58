import type { DataSource, EntityManager } from 'typeorm';

// Reads of the ledger (llm_calls: every model call, with its tokens, cost and cache use) and the
// writes that detach a deleted run from it.

// Numbers as the driver returns them (bigint sums come as text).
type Num = string | number;

// The calls a run's results used, as a subquery over llm_calls ($1 the run): per task and prompt
// one answered row, the model's answer before any replay of it from the cache, so a call repeated
// after a fault (a killed worker, a model error) counts once. Its list_cost_usd is what it costs
// at the model's prices whether the cache answered it or not: cost per system is then the same
// however the run's tasks were interleaved. The run's spend (usageSoFar) counts every row.
export const RESULT_CALLS_SQL = `(SELECT DISTINCT ON (task_id, cache_key) * FROM llm_calls
   WHERE run_id = $1 AND task_id IS NOT NULL AND status IN ('ok', 'cached')
   ORDER BY task_id, cache_key, cache_hit, created_at)`;

export interface RunUsageRow {
  calls: Num;
  hits: Num;
  repeated: Num;
  tin: Num;
  tout: Num;
  tcached: Num;
  treasoning: Num;
  cost: Num;
  reserved: Num;
  bcalls: Num;
  bcost: Num;
  bsaved: Num;
  bresent: Num;
}

// Every ledger row of the run, summed (repeats after faults included).
export async function runUsageRow(db: DataSource, runId: string): Promise<RunUsageRow> {
  const rows: RunUsageRow[] = await db.query(
    `SELECT COALESCE(SUM(calls), 0) AS calls, COALESCE(SUM(CASE WHEN cache_hit THEN calls ELSE 0 END), 0) AS hits,
            COUNT(task_id) - COUNT(DISTINCT (task_id, cache_key)) FILTER (WHERE task_id IS NOT NULL) AS repeated,
            COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout,
            COALESCE(SUM(tokens_cached), 0) AS tcached, COALESCE(SUM(tokens_reasoning), 0) AS treasoning,
            COALESCE(SUM(cost_usd) FILTER (WHERE status <> 'sent'), 0) AS cost,
            COALESCE(SUM(cost_usd) FILTER (WHERE status = 'sent'), 0) AS reserved,
            COALESCE(SUM(calls) FILTER (WHERE batched), 0) AS bcalls,
            COALESCE(SUM(cost_usd) FILTER (WHERE batched AND status <> 'sent'), 0) AS bcost,
            COALESCE(SUM(online_cost_usd - cost_usd) FILTER (WHERE batched AND status = 'ok'), 0) AS bsaved,
            COALESCE(SUM(attempts - 1) FILTER (WHERE batched AND status <> 'sent'), 0) AS bresent
     FROM llm_calls WHERE run_id = $1`,
    [runId],
  );
  return rows[0]!;
}

// Spent (settled calls) and reserved (calls not settled yet) of several runs, by run.
export async function runsCostRows(
  db: DataSource,
  runIds: readonly string[],
): Promise<{ run_id: string; cost: unknown; reserved: unknown }[]> {
  return db.query(
    `SELECT run_id, COALESCE(SUM(cost_usd) FILTER (WHERE status <> 'sent'), 0) AS cost,
              COALESCE(SUM(cost_usd) FILTER (WHERE status = 'sent'), 0) AS reserved
       FROM llm_calls WHERE run_id = ANY($1::uuid[]) GROUP BY run_id`,
    [runIds],
  );
}

// What each system's result calls cost at list prices (task ids are `<run>:<stage>:<system>:...`;
// '' for the run-wide score task).
export async function systemCostRows(
  db: DataSource,
  runId: string,
): Promise<{ system: string; cost: Num }[]> {
  return db.query(
    `SELECT split_part(task_id, ':', 3) AS system, COALESCE(SUM(list_cost_usd), 0) AS cost
     FROM ${RESULT_CALLS_SQL} c GROUP BY 1`,
    [runId],
  );
}

// Each system's result calls, tokens and list cost.
export async function systemUsageRows(db: DataSource, runId: string): Promise<Record<string, unknown>[]> {
  return db.query(
    `SELECT split_part(task_id, ':', 3) AS system, COALESCE(SUM(calls), 0) AS calls,
            COALESCE(SUM(tokens_in), 0) AS tin, COALESCE(SUM(tokens_out), 0) AS tout,
            COALESCE(SUM(tokens_cached), 0) AS tcached, COALESCE(SUM(tokens_reasoning), 0) AS treasoning,
            COALESCE(SUM(list_cost_usd), 0) AS cost
     FROM ${RESULT_CALLS_SQL} c GROUP BY 1`,
    [runId],
  );
}

// Each distinct note of the run's result calls, per system and model, ordered by all three.
export async function modelNoteRows(
  db: DataSource,
  runId: string,
): Promise<{ system: string; model: string; note: string; calls: unknown }[]> {
  return db.query(
    `SELECT split_part(c.task_id, ':', 3) AS system, c.model AS model, n.note AS note, SUM(c.calls) AS calls
     FROM ${RESULT_CALLS_SQL} c CROSS JOIN LATERAL jsonb_array_elements_text(c.notes) AS n(note)
     WHERE jsonb_typeof(c.notes) = 'array'
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [runId],
  );
}

// The run's calls per model name and provider model id.
export async function ledgerModelRows(
  db: DataSource,
  runId: string,
): Promise<{ model: string; model_id: string; calls: Num }[]> {
  return db.query(
    `SELECT model, model_id, SUM(calls) AS calls FROM llm_calls WHERE run_id = $1
     GROUP BY model, model_id ORDER BY model, model_id`,
    [runId],
  );
}

// The run's calls per template version.
export async function ledgerTemplateVersionRows(
  db: DataSource,
  runId: string,
): Promise<{ template_version: string; calls: Num }[]> {
  return db.query(
    `SELECT template_version, SUM(calls) AS calls FROM llm_calls
     WHERE run_id = $1 AND template_version IS NOT NULL GROUP BY 1 ORDER BY 1`,
    [runId],
  );
}

// Failed work of a run (failed or dead tasks, tasks with a failed judgment) whose model replies came
// from the response cache: the cache answers the same bad reply until a run without it asks again.
export async function countCachedFailures(db: DataSource, runId: string): Promise<number> {
  const rows = (await db.query(
    `WITH failed AS (
       SELECT id AS task_id FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead')
       UNION
       SELECT task_id FROM judgments WHERE run_id = $1 AND status = 'failed'
     )
     SELECT count(*)::int AS n FROM failed f
      WHERE EXISTS (SELECT 1 FROM llm_calls c WHERE c.run_id = $1 AND c.task_id = f.task_id AND c.cache_hit)`,
    [runId],
  )) as { n: number | string }[];
  return Number(rows[0]?.n ?? 0);
}

// A deleted run's ledger rows are kept without a run (they are the response cache and real
// spending); its cost reservations go.
export async function detachRunLedger(m: DataSource | EntityManager, runId: string): Promise<void> {
  await m.query('UPDATE llm_calls SET run_id = NULL WHERE run_id = $1', [runId]);
  await m.query('DELETE FROM run_costs WHERE run_id = $1', [runId]);
}
