import { chunkBySentences } from '@precis/text';

// Chunking a book takes a moment; the planner re-plans often, so chunk lists are memoized per
// (document, chunk size, encoding), and the text is only read on a miss.
const cache = new Map<string, string[]>();
const MAX_ENTRIES = 256;

export async function documentChunks(
  documentId: string,
  chunkSize: number,
  encoding: 'cl100k_base' | 'o200k_base',
  loadText: () => Promise<string>,
): Promise<string[]> {
  const key = `${documentId}:${chunkSize}:${encoding}`;
  let chunks = cache.get(key);
  if (!chunks) {
    chunks = chunkBySentences(await loadText(), { maxTokens: chunkSize, encoding }).map((c) => c.text);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, chunks);
  }
  return chunks;
}
