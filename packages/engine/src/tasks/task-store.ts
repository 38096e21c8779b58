import { OPEN_RUN_STATUSES, preparedQuery, type TaskStatus } from '@precis/db';
import { batcherFor, inDistinctRounds, type TurnBatcher } from '@precis/db/group-commit';
import { type LlmCallRecord, ledgerInsertSql, ledgerRowsJson, withHeldLedger } from '@precis/llm';
import type { DataSource, EntityManager } from 'typeorm';
import { unitKey } from '../ids.js';
import type { RunStage } from '../ports.js';
import { rememberInputResult } from './input-results.js';
import { rememberSummaryText } from './summary-texts.js';

// States a task never leaves (a worker that finishes later changes nothing).
export const FINISHED: readonly TaskStatus[] = ['done', 'failed', 'dead', 'cancelled'];
const sqlList = (values: readonly string[]) => `(${values.map((s) => `'${s}'`).join(', ')})`;
// The same as an SQL list: `status NOT IN ${FINISHED_SQL}` is a task still open.
export const FINISHED_SQL = sqlList(FINISHED);
// A run still open (pending, running, interrupted), as an SQL list.
const OPEN_SQL = sqlList(OPEN_RUN_STATUSES);

// `= ${idsIn(n)}`: one of the ids in text[] parameter $n. Through a sub-select every plan estimates
// it alike, so PostgreSQL keeps one generic plan (the claim spent 0.5 ms planning per call), and a
// statement joining tasks to a JSON recordset finds them by key (it scanned all of tasks).
export const idsIn = (param: number) => `ANY(ARRAY(SELECT unnest($${param}::text[])))`;

export interface NewTask {
  id: string;
  runId: string;
  stage: RunStage;
  kind: string;
  payload: Record<string, unknown>;
}

function taskUnit(t: NewTask): string | null {
  if (t.stage !== 'summarize' && t.stage !== 'retrieve') return null;
  const p = t.payload as { system?: string; documentId?: string };
  return p.system !== undefined && p.documentId !== undefined ? unitKey(p.system, p.documentId) : null;
}

// Inserts tasks that do not exist yet; returns the ids actually inserted (ON CONFLICT DO NOTHING).
// One statement per 1,000 tasks, the rows as one JSON parameter: 2,002 judge tasks took 0.29 s
// as TypeORM's 200-row inserts on PGlite. Only an open run gets tasks, and its row is locked
// until they commit: a cancel waits for them and cancels them too, or ends first and none are added.
const INSERT_TASKS_SQL = `WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(id text, run_id uuid, stage text, kind text, unit text, payload jsonb)
  ), open_runs AS (
    SELECT r.id FROM runs AS r
    WHERE r.id IN (SELECT run_id FROM input) AND r.status IN ${OPEN_SQL} FOR SHARE
  )
  INSERT INTO tasks (id, run_id, stage, kind, unit, status, payload)
  SELECT i.id, i.run_id, i.stage, i.kind, i.unit, 'queued', i.payload FROM input AS i
  WHERE i.run_id IN (SELECT id FROM open_runs)
  ON CONFLICT DO NOTHING RETURNING id`;

export async function insertTasks(db: DataSource | EntityManager, tasks: NewTask[]): Promise<string[]> {
  const inserted: string[] = [];
  for (let i = 0; i < tasks.length; i += 1000) {
    const rows = tasks.slice(i, i + 1000).map((t) => ({
      id: t.id,
      run_id: t.runId,
      stage: t.stage,
      kind: t.kind,
      unit: taskUnit(t),
      payload: t.payload ?? {},
    }));
    const res: { id: string }[] = await db.query(INSERT_TASKS_SQL, [JSON.stringify(rows)]);
    for (const row of res) inserted.push(row.id);
  }
  return inserted;
}

export interface ClaimedTask {
  id: string;
  runId: string;
  stage: string;
  kind: string;
  // Deliveries of the task so far, this one included.
  attempts: number;
  payload: Record<string, unknown>;
}

type ClaimRow = {
  id: string;
  run_id: string;
  stage: string;
  kind: string;
  attempts: number;
  payload: Record<string, unknown>;
  summary_id: string | null;
  summary_text: string | null;
  input_id: string | null;
  input_result: Record<string, unknown> | null;
};

const claimBatchers = new WeakMap<DataSource, TurnBatcher<string, ClaimedTask | null>>();

// The task to work on, marked as running (attempts + 1); null when it has already finished (a
// redelivery), waits for a provider batch, or its run is no longer running (completed, failed, stopped or cancelled). Claims
// made by concurrent handlers in one event-loop turn share one statement.
export async function claimTask(db: DataSource, id: string): Promise<ClaimedTask | null> {
  return batcherFor(claimBatchers, db, (ids: string[]) => claim(db, ids)).submit(id);
}

// One task per id, in order. An id listed twice is handed out once (the first entry gets it) and
// counts one delivery. The mark and the read are one statement (a separate read, then a mark
// not waited for, cost a statement more per task). A judge task reads the summary it judges next:
// the same statement reads it (once per summary) into summaryText()'s memo, which saves the
// handler a round trip before its model call. So does the result of the finished task a payload
// names as its `inputTask` (e.g. the summarize task whose parts a KGDS judge checks), into
// inputTaskResult()'s memo: 0.5 statements less per KGDS verify task.
async function claim(db: DataSource, ids: string[]): Promise<(ClaimedTask | null)[]> {
  const rows = await preparedQuery<ClaimRow>(
    db,
    `WITH claimed AS (
       UPDATE tasks AS t SET status = 'running', attempts = t.attempts + 1, updated_at = now()
       FROM runs AS r
       WHERE t.id = ${idsIn(1)} AND r.id = t.run_id AND r.status IN ('pending', 'running')
         AND t.status NOT IN ${FINISHED_SQL} AND t.status <> 'waiting'
       RETURNING t.id, t.run_id, t.stage, t.kind, t.attempts, t.payload)
     SELECT c.*, s.id AS summary_id,
            CASE WHEN row_number() OVER (PARTITION BY s.id ORDER BY c.id) = 1 THEN s.text END AS summary_text,
            i.id AS input_id,
            CASE WHEN row_number() OVER (PARTITION BY i.id ORDER BY c.id) = 1 THEN i.result END AS input_result
     FROM claimed AS c LEFT JOIN summaries AS s ON s.id = c.payload->>'summaryId'
     LEFT JOIN tasks AS i ON i.id = c.payload->>'inputTask' AND i.status = 'done'`,
    [[...new Set(ids)]],
  );
  for (const row of rows) {
    if (row.summary_id !== null && row.summary_text !== null)
      rememberSummaryText(row.summary_id, row.summary_text);
    if (row.input_id !== null && row.input_result !== null)
      rememberInputResult(db, row.input_id, row.input_result);
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) return null;
    byId.delete(id);
    return {
      id: row.id,
      runId: row.run_id,
      stage: row.stage,
      kind: row.kind,
      attempts: Number(row.attempts),
      payload: row.payload,
    };
  });
}

// A run's spec never changes once stored, so workers keep it instead of reading it per task.
// (Memoized as promises: the tasks a worker starts together at a run's start read it once.)
const specCache = new Map<string, Promise<Record<string, unknown>>>();

export function runSpec(db: DataSource, runId: string): Promise<Record<string, unknown>> {
  let spec = specCache.get(runId);
  if (!spec) {
    spec = db
      .query('SELECT spec FROM runs WHERE id = $1', [runId])
      .then((rows: { spec: Record<string, unknown> }[]) => {
        if (!rows[0]) throw new Error(`run ${runId} does not exist`);
        return rows[0].spec;
      });
    spec.catch(() => specCache.delete(runId));
    if (specCache.size >= 64) specCache.delete(specCache.keys().next().value!);
    specCache.set(runId, spec);
  }
  return spec;
}

// Ledger records held by tasks' scopes (withHeldLedger, at each task's submit) as a
// data-modifying CTE for the statement that finishes those tasks: `ledger AS (...), ` over
// parameter `$param`, or nothing when there are none.
export function heldLedgerCte(
  rows: readonly LlmCallRecord[],
  param: number,
): { cte: string; params: string[] } {
  if (rows.length === 0) return { cte: '', params: [] };
  return { cte: `ledger AS (${ledgerInsertSql(`$${param}::jsonb`)}), `, params: [ledgerRowsJson(rows)] };
}

// Records a final state once: a second completion of the same task changes nothing. The ledger
// records its calls' scope holds (@precis/llm withLedgerScope) are written by the same statement
// (in a transaction, make it the last statement: a rollback after it takes those rows with it).
export function finishTask(
  db: DataSource | EntityManager,
  id: string,
  status: 'done' | 'failed' | 'dead',
  result: Record<string, unknown> | null,
  error: string | null,
): Promise<boolean> {
  return withHeldLedger(async (held) => {
    const ledger = heldLedgerCte(held, 5);
    const rows = await preparedQuery<{ id: string }>(
      db,
      `WITH ${ledger.cte}done AS (
         UPDATE tasks SET status = $2, result = $3, error = $4, finished_at = now(), updated_at = now()
         WHERE id = $1 AND status NOT IN ${FINISHED_SQL} RETURNING id)
       SELECT id FROM done`,
      [id, status, result === null ? null : JSON.stringify(result), error, ...ledger.params],
    );
    return rows.length > 0;
  });
}

export interface JudgmentRow {
  id: string;
  runId: string;
  summaryId: string;
  system: string;
  metric: string;
  unit: number;
  status: string;
  verdict: Record<string, unknown>;
  judge: string;
  templateVersion: string | null;
  taskId: string;
}

interface TaskJudgmentsWrite {
  id: string;
  status: 'done' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
  rows: JudgmentRow[];
  // Ledger records of the task's calls, written by the same statement.
  ledger: readonly LlmCallRecord[];
}

const judgedBatchers = new WeakMap<DataSource, TurnBatcher<TaskJudgmentsWrite, boolean>>();

// Finishes a task and stores its judgments (none for a plain result) atomically: the rows are
// written only when this call is the one that finished the task (true). Finishes by concurrent
// handlers in one event-loop turn share one statement (group commit); each resolves once its part
// is written. The ledger records the task's scope holds (@precis/llm withLedgerScope) go into that
// statement too.
export function finishTaskWithJudgments(
  db: DataSource,
  id: string,
  status: 'done' | 'failed',
  result: Record<string, unknown> | null,
  error: string | null,
  rows: JudgmentRow[],
): Promise<boolean> {
  return withHeldLedger((ledger) =>
    batcherFor(judgedBatchers, db, (ws: TaskJudgmentsWrite[]) =>
      inDistinctRounds(
        ws,
        (w) => [`t:${w.id}`, ...w.rows.map((r) => `j:${r.id}`)],
        (distinct) => finishJudgedTasks(db, distinct),
      ),
    ).submit({ id, status, result, error, rows, ledger }),
  );
}

// One statement for writes whose task ids and judgment ids are all distinct.
async function finishJudgedTasks(db: DataSource, writes: TaskJudgmentsWrite[]): Promise<boolean[]> {
  const ledger = heldLedgerCte(
    writes.flatMap((w) => w.ledger),
    3,
  );
  const done = await preparedQuery<{ id: string }>(
    db,
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(id text, status text, result jsonb, error text, judgments jsonb)
     ), ${ledger.cte}done AS (
       UPDATE tasks AS t SET status = i.status, result = i.result, error = i.error, finished_at = now(), updated_at = now()
       FROM input AS i
       WHERE t.id = ${idsIn(1)} AND t.id = i.id AND t.status NOT IN ${FINISHED_SQL}
       RETURNING t.id
     ), written AS (
       INSERT INTO judgments (id, run_id, summary_id, system, metric, unit, status, verdict, judge, template_version, task_id)
       SELECT j.id, j.run_id, j.summary_id, j.system, j.metric, j.unit, j.status, j.verdict, j.judge, j.template_version, j.task_id
       FROM input AS i JOIN done AS d ON d.id = i.id
       CROSS JOIN LATERAL jsonb_to_recordset(i.judgments) AS j(id text, run_id uuid, summary_id text, system text, metric text,
                                                               unit integer, status text, verdict jsonb, judge text,
                                                               template_version text, task_id text)
       ON CONFLICT (id) DO NOTHING
     )
     -- Data-modifying CTEs always run to completion, read or not.
     SELECT id FROM done`,
    [
      writes.map((w) => w.id),
      JSON.stringify(
        writes.map((w) => ({
          id: w.id,
          status: w.status,
          result: w.result,
          error: w.error,
          judgments: w.rows.map((r) => ({
            id: r.id,
            run_id: r.runId,
            summary_id: r.summaryId,
            system: r.system,
            metric: r.metric,
            unit: r.unit,
            status: r.status,
            verdict: r.verdict,
            judge: r.judge,
            template_version: r.templateVersion,
            task_id: r.taskId,
          })),
        })),
      ),
      ...ledger.params,
    ],
  );
  const finished = new Set(done.map((r) => r.id));
  return writes.map((w) => finished.has(w.id));
}
