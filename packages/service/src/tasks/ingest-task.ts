import { PermanentTaskError } from '@precis/engine';

// The one task kind of the ingest stage: import a dataset file. Its JSON payload has the shape
// of precis.v1.ImportDatasetRequest, so the gateway forwards a request as it came.
export const INGEST_TASK_KIND = 'import-dataset';

export interface IngestTaskPayload {
  // kgds | summeval-op | text | jsonl | persphere | retrieval (checked by the importer).
  kind: string;
  // File path as seen by the ingestion service.
  path: string;
  // The documents file of a two-file kind, as seen by the ingestion service.
  documentsPath?: string;
  datasetName: string;
  replace: boolean;
}

// What the ingestion service stores in tasks.result for a done import.
export interface IngestTaskResult {
  [key: string]: unknown;
  status: 'imported' | 'unchanged' | 'replaced';
  datasetId: string;
  datasetName: string;
  counts: Record<string, number>;
}

function field(taskId: string, name: string, problem: string): PermanentTaskError {
  return new PermanentTaskError(
    `ingest task ${taskId}: payload field ${name} ${problem}`,
    'invalid-argument',
  );
}

export function parseIngestTaskPayload(taskId: string, raw: unknown): IngestTaskPayload {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PermanentTaskError(`ingest task ${taskId}: payload must be a JSON object`, 'invalid-argument');
  }
  const p = raw as Record<string, unknown>;
  for (const name of ['kind', 'path', 'datasetName'] as const) {
    if (typeof p[name] !== 'string' || (p[name] as string).trim() === '') {
      throw field(taskId, name, 'must be a non-empty string');
    }
  }
  if (p.replace !== undefined && typeof p.replace !== 'boolean')
    throw field(taskId, 'replace', 'must be a boolean');
  if (p.documentsPath !== undefined && (typeof p.documentsPath !== 'string' || p.documentsPath.trim() === ''))
    throw field(taskId, 'documentsPath', 'must be a non-empty string when given');
  return {
    kind: p.kind as string,
    path: p.path as string,
    ...(typeof p.documentsPath === 'string' ? { documentsPath: p.documentsPath } : {}),
    datasetName: p.datasetName as string,
    replace: p.replace === true,
  };
}
