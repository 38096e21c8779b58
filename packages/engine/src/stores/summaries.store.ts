import type { DataSource } from 'typeorm';

// Reads and writes of the runs' summaries and of the units that settled without one.

export interface SummaryRowInput {
  id: string;
  runId: string;
  system: string;
  documentId: string;
  text: string;
  finalStep: string;
  producer: string;
}

// The texts of the given summaries (those that exist).
export async function summaryTextRows(
  db: DataSource,
  ids: readonly string[],
): Promise<{ id: string; text: string }[]> {
  return db.query('SELECT id, text FROM summaries WHERE id = ANY($1::text[])', [ids]);
}

// Each system's final summary of one document in a run.
export async function documentSummaryRows(
  db: DataSource,
  runId: string,
  documentId: string,
): Promise<{ system: string; text: string; producer: string; final_step: string }[]> {
  return db.query(
    'SELECT system, text, producer, final_step FROM summaries WHERE run_id = $1 AND document_id = $2',
    [runId, documentId],
  );
}

// Writes summaries in one statement; one already written stays as it is.
export async function insertSummaries(db: DataSource, summaries: readonly SummaryRowInput[]): Promise<void> {
  await db.query(
    `INSERT INTO summaries (id, run_id, system, document_id, text, final_step, producer)
       SELECT s.id, s.run_id, s.system, s.document_id, s.text, s.final_step, s.producer
       FROM jsonb_to_recordset($1::jsonb) AS s(id text, run_id uuid, system text, document_id uuid,
                                               text text, final_step text, producer text)
       ON CONFLICT (id) DO NOTHING`,
    [
      JSON.stringify(
        summaries.map((s) => ({
          id: s.id,
          run_id: s.runId,
          system: s.system,
          document_id: s.documentId,
          text: s.text,
          final_step: s.finalStep,
          producer: s.producer,
        })),
      ),
    ],
  );
}

// Records the units that failed (once each: a unit recorded before keeps its first failure).
export async function insertUnitFailures(
  db: DataSource,
  runId: string,
  failures: readonly { unit: string; task_id: string; error: string | null }[],
): Promise<void> {
  await db.query(
    `INSERT INTO run_unit_failures (run_id, unit, task_id, error)
       SELECT $1, f.unit, f.task_id, f.error FROM jsonb_to_recordset($2::jsonb) AS f(unit text, task_id text, error text)
       ON CONFLICT (run_id, unit) DO NOTHING`,
    [runId, JSON.stringify(failures)],
  );
}
