import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { countTokens, decodeTokens, encodeTokens, getEncoder, isEncoding, tokenOffsets } from './tokens.js';

describe('tokens', () => {
  it('matches known tiktoken encodings', () => {
    // Reference ids from OpenAI's tiktoken for "hello world".
    expect(encodeTokens('hello world', 'cl100k_base')).toEqual([15339, 1917]);
    expect(encodeTokens('hello world', 'o200k_base')).toEqual([24912, 2375]);
    expect(countTokens('')).toBe(0);
    expect(countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
  });

  it('round-trips text, including non-ASCII and special-token strings', () => {
    for (const enc of ['cl100k_base', 'o200k_base'] as const) {
      const text = 'Café 中文 🙂 — <|endoftext|> end';
      expect(decodeTokens(encodeTokens(text, enc), enc)).toBe(text);
    }
  });

  it('caches one encoder per encoding and rejects unknown names', () => {
    expect(getEncoder('cl100k_base')).toBe(getEncoder('cl100k_base'));
    expect(getEncoder('o200k_base')).not.toBe(getEncoder('cl100k_base'));
    expect(isEncoding('p50k_base')).toBe(false);
    expect(() => getEncoder('p50k_base' as 'cl100k_base')).toThrow(/unknown token encoding "p50k_base"/);
  });

  it('maps tokens to character offsets without cutting characters', () => {
    const text = 'ab 中文字 🦜x 鬱 𓀀.';
    const tokens = encodeTokens(text);
    const offsets = tokenOffsets(text, tokens);
    expect(offsets).toHaveLength(tokens.length + 1);
    expect(offsets[0]).toBe(0);
    expect(offsets[tokens.length]).toBe(text.length);
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]!).toBeGreaterThanOrEqual(offsets[i - 1]!);
    // Every distinct offset is a character boundary: slices re-join to the text exactly.
    const cuts = [...new Set(offsets)];
    const parts = cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    expect(new Set(offsets).size).toBeLessThan(offsets.length); // emoji/CJK span several tokens
  });

  // js-tiktoken's own encoder, the reference for ours (bpe.ts) and for the piece cache.
  const reference = { cl100k_base: new Tiktoken(cl100kBase), o200k_base: new Tiktoken(o200kBase) };

  const datasets = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets');

  it("gives exactly js-tiktoken's tokens and text, on whole books and on awkward text", () => {
    const books = resolve(datasets, 'books');
    const texts = [
      readFileSync(resolve(books, 'pride-and-prejudice.txt'), 'utf8'),
      readFileSync(resolve(books, 'alice-in-wonderland.txt'), 'utf8'),
      // Whitespace runs before words and at the end, CRLF, digits, contractions, emoji, CJK.
      `${'x'.repeat(500)} ${' '.repeat(300)}end`,
      "  two  spaces\t\ttabs \r\n\r\n  x   \n\n\n12345 678'S I'll we'RE 🙂🙂 中文字 <|endoftext|>  ",
      ' ',
      '\n',
      '   ',
      "'",
      'a',
      '',
    ];
    for (const enc of ['cl100k_base', 'o200k_base'] as const) {
      for (const text of texts) {
        const expected = reference[enc].encode(text, [], []);
        // Twice: the second pass reads every piece from the cache.
        expect(encodeTokens(text, enc)).toEqual(expected);
        expect(encodeTokens(text, enc)).toEqual(expected);
        expect(countTokens(text, enc)).toBe(expected.length);
        // Token by token too, where a token holds part of a character (decoded as U+FFFD).
        const head = expected.slice(0, 3000);
        expect(head.map((t) => decodeTokens([t], enc))).toEqual(head.map((t) => reference[enc].decode([t])));
      }
    }
  });

  it("gives js-tiktoken's tokens for every text of the KGDS and SummEval-OP datasets", () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(strings)
          : [];
    const kgds = strings(JSON.parse(readFileSync(resolve(datasets, 'kgds/KGDS.json'), 'utf8')));
    const op = readFileSync(resolve(datasets, 'summeval-op/summeval-op.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => strings(JSON.parse(line)));
    expect(kgds.length).toBeGreaterThan(10_000);
    for (const enc of ['cl100k_base', 'o200k_base'] as const) {
      const differing = [...kgds, ...op].filter(
        (text) => encodeTokens(text, enc).join() !== reference[enc].encode(text, [], []).join(),
      );
      expect(differing).toEqual([]);
    }
  });
});
