import type { DataSource, EntityManager } from 'typeorm';

// Reads of imported documents (documents, datasets).

// The texts of the given documents, in one query.
export async function documentTexts(db: DataSource, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows: { id: string; text: string }[] = await db.query(
    'SELECT id, text FROM documents WHERE id = ANY($1::uuid[])',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r.text]));
}

// The `data` of the documents the summaries are about (gold claims, references...), by id.
export async function summaryDocumentData(
  db: DataSource,
  summaries: readonly { documentId: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  const ids = [...new Set(summaries.map((s) => s.documentId))];
  if (ids.length === 0) return new Map();
  const rows: { id: string; data: Record<string, unknown> }[] = await db.query(
    'SELECT id, data FROM documents WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.data]));
}

// The external ids of the first documents (at most six) of the named datasets, by dataset name
// and order: examples for a message naming a document that is not there.
export async function datasetExternalIds(db: DataSource, datasetNames: readonly string[]): Promise<string[]> {
  const rows: { external_id: string }[] = await db.query(
    'SELECT d.external_id FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ANY($1) ORDER BY ds.name, d.ordinal LIMIT 6',
    [datasetNames],
  );
  return rows.map((r) => r.external_id);
}

// The ids and external ids of a dataset's documents.
export async function datasetDocumentIds(
  db: DataSource | EntityManager,
  datasetId: string,
): Promise<{ id: string; external_id: string }[]> {
  return db.query('SELECT id, external_id FROM documents WHERE dataset_id = $1', [datasetId]);
}
