import { describe, expect, it } from '@jest/globals';
import { chunkByParagraphs, chunkBySentences, chunkByTokens, type TextChunk } from './chunks.js';
import { splitSentenceSpans } from './sentences.js';
import { countTokens, encodeTokens } from './tokens.js';

function expectExactSlices(text: string, chunks: TextChunk[]): void {
  for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
}

const squash = (s: string) => s.replace(/\s+/g, '');

describe('chunkByTokens', () => {
  const text = 'The quick brown fox jumps over the lazy dog. It was not amused, and left at once.';

  it('makes windows of `size` tokens that advance by size - overlap', () => {
    const total = encodeTokens(text).length;
    const chunks = chunkByTokens(text, { size: 8, overlap: 3 });
    expectExactSlices(text, chunks);
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(text.length);
    // Windows start at tokens 0, 5, 10, ... until one reaches the last token.
    expect(chunks).toHaveLength(Math.ceil((total - 8) / 5) + 1);
    for (const c of chunks.slice(0, -1)) expect(c.tokenCount).toBe(8);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end); // overlap
      expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
    }
    expect(chunks[0]!.text).toBe('The quick brown fox jumps over the lazy');
    expect(chunks[1]!.text).toBe(' over the lazy dog. It was not');
  });

  it('without overlap, windows tile the text exactly', () => {
    const chunks = chunkByTokens(text, { size: 5 });
    expect(chunks.map((c) => c.text).join('')).toBe(text);
  });

  it('does not cut multi-token characters', () => {
    const t = '🦜🦜🦜 𓀀𓀀 end';
    const chunks = chunkByTokens(t, { size: 2 });
    expect(chunks.map((c) => c.text).join('')).toBe(t);
    for (const c of chunks) expect(c.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it('rejects bad sizes with a message naming the option', () => {
    expect(() => chunkByTokens(text, { size: 0 })).toThrow(
      /chunkByTokens: size must be a positive integer, got 0/,
    );
    expect(() => chunkByTokens(text, { size: 4, overlap: 4 })).toThrow(
      /overlap must be an integer in \[0, size - 1\]/,
    );
    expect(chunkByTokens('', { size: 4 })).toEqual([]);
  });
});

describe('chunkBySentences', () => {
  const text =
    'Alpha beta gamma delta. Epsilon zeta eta theta iota.\n\nKappa lambda mu. Nu xi omicron pi rho sigma tau upsilon.';

  it('packs whole sentences greedily under the limit', () => {
    const sentences = splitSentenceSpans(text);
    const max = countTokens(text.slice(0, sentences[1]!.end)) + 1;
    const chunks = chunkBySentences(text, { maxTokens: max });
    expectExactSlices(text, chunks);
    expect(chunks[0]!.text).toBe('Alpha beta gamma delta. Epsilon zeta eta theta iota.');
    for (const c of chunks) {
      expect(c.tokenCount).toBe(countTokens(c.text));
      expect(c.tokenCount).toBeLessThanOrEqual(max);
      expect(c.splitMidSentence).toBeUndefined();
      expect(sentences.some((s) => s.end === c.end)).toBe(true);
    }
    expect(squash(chunks.map((c) => c.text).join(''))).toBe(squash(text));
  });

  it('puts everything in one chunk when it fits', () => {
    const chunks = chunkBySentences(text, { maxTokens: 1000 });
    expect(chunks).toEqual([{ text, start: 0, end: text.length, tokenCount: countTokens(text) }]);
  });

  it('cuts a sentence longer than the limit between tokens and flags the pieces', () => {
    const long = `Short one. Then ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')} end. Last.`;
    const chunks = chunkBySentences(long, { maxTokens: 20 });
    expectExactSlices(long, chunks);
    expect(chunks[0]).toMatchObject({ text: 'Short one.' });
    const pieces = chunks.filter((c) => c.splitMidSentence);
    expect(pieces.length).toBeGreaterThanOrEqual(6);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(20);
    // Cuts fall between words.
    for (const p of pieces) expect(p.text).toMatch(/^(?:Then|word\d+) .*(?:word\d+|end\.)$/);
    expect(chunks.at(-1)).toMatchObject({ text: 'Last.' });
    expect(squash(chunks.map((c) => c.text).join(''))).toBe(squash(long));
  });

  it('rejects a non-positive limit', () => {
    expect(() => chunkBySentences(text, { maxTokens: -1 })).toThrow(/chunkBySentences: maxTokens/);
  });
});

describe('chunkByParagraphs', () => {
  it('returns one chunk per blank-line separated paragraph', () => {
    const text = '  First line\nwraps here.\n\n\n  Second.\n \t\nThird\n';
    const chunks = chunkByParagraphs(text);
    expectExactSlices(text, chunks);
    expect(chunks.map((c) => c.text)).toEqual(['First line\nwraps here.', 'Second.', 'Third']);
    expect(chunks[1]!.tokenCount).toBe(countTokens('Second.'));
  });
});
