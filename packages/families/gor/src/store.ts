import type { DataSource } from 'typeorm';
import type { GorStepPayload } from './payloads.js';

// The GoR family's reads of its tasks (its trained weights: steps/weights-store.ts).

// Each GoR system's summary task of one meeting, with the summary it wrote (if any), by system.
export async function gorSummaryTaskRows(
  db: DataSource,
  runId: string,
  documentId: string,
): Promise<{ payload: GorStepPayload; text: string | null; producer: string | null }[]> {
  return db.query(
    `SELECT t.payload, s.text, s.producer FROM tasks t
       LEFT JOIN summaries s ON s.run_id = t.run_id AND s.system = t.payload->>'system' AND s.document_id::text = t.payload->>'documentId'
      WHERE t.run_id = $1 AND t.kind = 'gor-summary' AND t.payload->>'documentId' = $2
      ORDER BY t.payload->>'system'`,
    [runId, documentId],
  );
}

// The system's finished graph tasks, one per meeting, in dataset order.
export async function builtGraphRows(
  db: DataSource,
  runId: string,
  system: string,
): Promise<{ payload: GorStepPayload; result: { text: string } }[]> {
  return db.query(
    `SELECT t.payload, t.result FROM tasks t JOIN documents d ON d.id::text = t.payload->>'documentId'
      WHERE t.run_id = $1 AND t.kind = 'gor-graph' AND t.status = 'done' AND t.payload->>'system' = $2
      ORDER BY d.dataset_id, d.ordinal`,
    [runId, system],
  );
}
