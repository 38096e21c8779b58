import { splitParagraphSpans } from './paragraphs.js';
import { splitSentenceSpans } from './sentences.js';
import type { TextSpan } from './span.js';
import { countTokens, DEFAULT_ENCODING, type Encoding, encodeTokens, tokenOffsets } from './tokens.js';

// A chunk is always an exact slice of the source (`text === source.slice(start, end)`).
export interface TextChunk extends TextSpan {
  tokenCount: number;
  // Set on the pieces of a single sentence longer than the chunk limit, which had to be cut
  // between tokens instead of at a sentence end.
  splitMidSentence?: true;
}

function positiveInt(value: number, name: string, fn: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${fn}: ${name} must be a positive integer, got ${value}`);
  }
}

// Fixed windows of `size` tokens, each starting `size - overlap` tokens after the previous one.
// tokenCount is the window length in the encoding of the whole text.
export function chunkByTokens(
  text: string,
  opts: { size: number; overlap?: number; encoding?: Encoding },
): TextChunk[] {
  const { size, overlap = 0, encoding = DEFAULT_ENCODING } = opts;
  positiveInt(size, 'size', 'chunkByTokens');
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new Error(
      `chunkByTokens: overlap must be an integer in [0, size - 1] (size ${size}), got ${overlap}`,
    );
  }
  const tokens = encodeTokens(text, encoding);
  const offsets = tokenOffsets(text, tokens, encoding);
  const chunks: TextChunk[] = [];
  for (let i = 0; i < tokens.length; i += size - overlap) {
    const j = Math.min(i + size, tokens.length);
    const start = offsets[i]!;
    const end = offsets[j]!;
    if (end > start) chunks.push({ text: text.slice(start, end), start, end, tokenCount: j - i });
    if (j === tokens.length) break;
  }
  return chunks;
}

function startsWord(text: string, at: number): boolean {
  return /\s/.test(text[at] ?? '') || /\s/.test(text[at - 1] ?? '');
}

// Cuts one over-long span into pieces of at most maxTokens tokens, preferring to cut before a
// token that starts a word so no word is split when avoidable.
function splitSpanByTokens(text: string, span: TextSpan, maxTokens: number, encoding: Encoding): TextChunk[] {
  const tokens = encodeTokens(span.text, encoding);
  const offsets = tokenOffsets(span.text, tokens, encoding);
  const pieces: TextChunk[] = [];
  let i = 0;
  while (i < tokens.length) {
    let j = Math.min(i + maxTokens, tokens.length);
    if (j < tokens.length) {
      let k = j;
      while (k > i + maxTokens / 2 && !startsWord(span.text, offsets[k]!)) k--;
      if (k > i + maxTokens / 2) j = k;
    }
    // Re-encoding a slice on its own can differ from the in-context tokens; shrink until it fits.
    for (;;) {
      const raw = span.text.slice(offsets[i], offsets[j]);
      const body = raw.trim();
      const start = span.start + offsets[i]! + (raw.length - raw.trimStart().length);
      const tokenCount = countTokens(body, encoding);
      if (tokenCount <= maxTokens || j - i <= 1) {
        if (body)
          pieces.push({ text: body, start, end: start + body.length, tokenCount, splitMidSentence: true });
        break;
      }
      j--;
    }
    i = j;
  }
  if (pieces.some((p) => text.slice(p.start, p.end) !== p.text)) {
    throw new Error('splitSpanByTokens: internal offset error (piece does not match its source slice)');
  }
  return pieces;
}

// Consecutive, non-overlapping chunks of at most maxTokens tokens that end on sentence
// boundaries (METHODS.md §1.1). Whitespace between chunks belongs to no chunk. A sentence longer
// than maxTokens on its own is cut between tokens and its pieces are flagged splitMidSentence.
export function chunkBySentences(
  text: string,
  opts: { maxTokens: number; encoding?: Encoding },
): TextChunk[] {
  const { maxTokens, encoding = DEFAULT_ENCODING } = opts;
  positiveInt(maxTokens, 'maxTokens', 'chunkBySentences');
  const sentences = splitSentenceSpans(text);
  // Estimates come from one encoding of the whole text: the tokens from the start of sentence i
  // to the end of sentence j-1. A chunk encoded on its own differs only at its edges.
  const tokens = encodeTokens(text, encoding);
  const offsets = tokenOffsets(text, tokens, encoding);
  const before = tokensBefore(offsets, sentences);
  const estimate = (i: number, j: number) => before[j - 1]!.end - before[i]!.start;
  const chunks: TextChunk[] = [];
  let i = 0;
  while (i < sentences.length) {
    const first = sentences[i]!;
    const alone = countTokens(first.text, encoding);
    if (alone > maxTokens) {
      chunks.push(...splitSpanByTokens(text, first, maxTokens, encoding));
      i++;
      continue;
    }
    const exact = (j: number) =>
      j === i + 1 ? alone : countTokens(text.slice(first.start, sentences[j - 1]!.end), encoding);
    let j = i + 1;
    while (j < sentences.length && estimate(i, j + 1) <= maxTokens) j++;
    // Make it exact: shrink while over the limit, grow while the next sentence still fits.
    let tokenCount = exact(j);
    while (tokenCount > maxTokens) tokenCount = exact(--j);
    while (j < sentences.length && estimate(i, j + 1) <= maxTokens + ESTIMATE_SLACK) {
      const grown = exact(j + 1);
      if (grown > maxTokens) break;
      tokenCount = grown;
      j++;
    }
    const end = sentences[j - 1]!.end;
    chunks.push({ text: text.slice(first.start, end), start: first.start, end, tokenCount });
    i = j;
  }
  return chunks;
}

// How far (in tokens) an edge effect can make a whole-text estimate exceed the exact count.
const ESTIMATE_SLACK = 8;

// For each span, the number of tokens starting before its start and before its end.
function tokensBefore(
  offsets: readonly number[],
  spans: readonly TextSpan[],
): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let t = 0;
  const last = offsets.length - 1;
  for (const s of spans) {
    while (t < last && offsets[t]! < s.start) t++;
    const start = t;
    while (t < last && offsets[t]! < s.end) t++;
    out.push({ start, end: t });
  }
  return out;
}

// One chunk per paragraph (blank-line separated).
export function chunkByParagraphs(text: string, opts: { encoding?: Encoding } = {}): TextChunk[] {
  const encoding = opts.encoding ?? DEFAULT_ENCODING;
  return splitParagraphSpans(text).map((p) => ({ ...p, tokenCount: countTokens(p.text, encoding) }));
}
