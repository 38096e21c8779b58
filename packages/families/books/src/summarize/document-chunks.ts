import { chunkBySentences } from '@precis/text';

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
