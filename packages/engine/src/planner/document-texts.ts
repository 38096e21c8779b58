import type { DataSource } from 'typeorm';

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
