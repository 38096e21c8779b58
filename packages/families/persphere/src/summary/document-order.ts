import { createHash } from 'node:crypto';

// METHODS.md §3.5 document order: as ranked, reversed, or a seeded shuffle (the same run seed and
// query always give the same order, so runs are reproducible and resumable).
export function orderDocuments(
  ids: readonly string[],
  order: 'ranked' | 'reversed' | 'random',
  seed: string,
): string[] {
  if (order === 'ranked') return [...ids];
  if (order === 'reversed') return [...ids].reverse();
  const key = (id: string) => createHash('sha256').update(`${seed}:${id}`).digest('hex');
  return [...ids].sort((a, b) => key(a).localeCompare(key(b)));
}
