import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { chunkBySentences, countTokens, splitSentenceSpans } from '@precis/text';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const book = (name: string) => readFileSync(resolve(repoRoot, '../shared/datasets/books', name), 'utf8');
const squash = (s: string) => s.replace(/\s+/g, '');

// Acceptance (issue 2): a real book chunks into sentence-bounded chunks within the limit that
// concatenate back to the book modulo whitespace.
describe.each([
  ['pride-and-prejudice.txt', 2048, 'cl100k_base'],
  ['alice-in-wonderland.txt', 1024, 'o200k_base'],
] as const)('%s at %i tokens (%s)', (file, maxTokens, encoding) => {
  const text = book(file);
  const sentences = splitSentenceSpans(text);
  const chunks = chunkBySentences(text, { maxTokens, encoding });
  const sentenceEnds = new Set(sentences.map((s) => s.end));
  const sentenceStarts = new Set(sentences.map((s) => s.start));

  it('produces sentence-bounded chunks within the limit', () => {
    expect(chunks.length).toBeGreaterThan(countTokens(text, encoding) / maxTokens);
    for (const c of chunks) {
      expect(c.splitMidSentence).toBeUndefined();
      expect(c.tokenCount).toBeLessThanOrEqual(maxTokens);
      expect(sentenceStarts.has(c.start)).toBe(true);
      expect(sentenceEnds.has(c.end)).toBe(true);
      expect(text.slice(c.start, c.end)).toBe(c.text);
    }
  });

  it('spot-checks token counts and greedy packing', () => {
    for (const c of chunks.filter((_, i) => i % 10 === 0))
      expect(countTokens(c.text, encoding)).toBe(c.tokenCount);
    // No chunk could have taken the next sentence too.
    const next = chunks.slice(0, -1).filter((_, i) => i % 10 === 0);
    for (const c of next) {
      const following = sentences.find((s) => s.start >= c.end)!;
      expect(countTokens(text.slice(c.start, following.end), encoding)).toBeGreaterThan(maxTokens);
    }
  });

  it('concatenates back to the text modulo whitespace', () => {
    expect(squash(chunks.map((c) => c.text).join(''))).toBe(squash(text));
    for (let i = 1; i < chunks.length; i++) {
      expect(text.slice(chunks[i - 1]!.end, chunks[i]!.start).trim()).toBe('');
    }
  });
});
