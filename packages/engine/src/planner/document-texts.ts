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
