import { chunkBySentences } from '@precis/text';
import type { DataSource } from 'typeorm';

// Chunking a book takes a moment and a unit is re-planned after each of its steps, so chunk lists
// are memoized per (document, chunk size, encoding); texts are read only on a miss, many at once.
const cache = new Map<string, string[]>();
const MAX_ENTRIES = 4096;

export interface ChunkOptions {
  chunkSize: number;
  encoding: 'cl100k_base' | 'o200k_base';
}

const keyOf = (documentId: string, o: ChunkOptions) => `${documentId}:${o.chunkSize}:${o.encoding}`;

export function cachedChunks(documentId: string, o: ChunkOptions): string[] | undefined {
  return cache.get(keyOf(documentId, o));
}

export function chunkDocument(documentId: string, text: string, o: ChunkOptions): string[] {
  const key = keyOf(documentId, o);
  let chunks = cache.get(key);
  if (!chunks) {
    chunks = chunkBySentences(text, { maxTokens: o.chunkSize, encoding: o.encoding }).map((c) => c.text);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, chunks);
  }
  return chunks;
}

// The texts of the given documents, in one query.
export async function documentTexts(db: DataSource, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows: { id: string; text: string }[] = await db.query(
    'SELECT id, text FROM documents WHERE id = ANY($1::uuid[])',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, r.text]));
}
