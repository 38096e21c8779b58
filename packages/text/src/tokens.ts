import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { BytePairEncoder } from './bpe.js';

export const ENCODINGS = ['cl100k_base', 'o200k_base'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: Encoding = 'cl100k_base';

const RANKS = { cl100k_base: cl100kBase, o200k_base: o200kBase } as const;

// Building an encoder reads 100-200k ranks (0.1-0.2 s), so each one is built once per process.
const encoders = new Map<Encoding, BytePairEncoder>();

export function isEncoding(value: string): value is Encoding {
  return (ENCODINGS as readonly string[]).includes(value);
}

export function getEncoder(encoding: Encoding = DEFAULT_ENCODING): BytePairEncoder {
  let enc = encoders.get(encoding);
  if (!enc) {
    if (!isEncoding(encoding)) {
      throw new Error(
        `unknown token encoding ${JSON.stringify(encoding)}: use one of ${ENCODINGS.join(', ')}`,
      );
    }
    enc = new BytePairEncoder(RANKS[encoding]);
    encoders.set(encoding, enc);
  }
  return enc;
}

// tiktoken encodes a text as the concatenation of its pre-token pieces (the encoding's regex
// matches: words with their leading space, numbers, punctuation runs, whitespace), each
// byte-pair encoded on its own. Pieces repeat a great deal in any text, so their tokens are
// cached per encoding: a piece is byte-pair encoded once, and counting a text costs one regex
// pass and a map lookup per piece (tokens.spec.ts checks whole books and datasets against
// js-tiktoken's encoder).
const PIECE_CACHE_LIMIT = 200_000;
// Longer pieces (a run of letters with no space, a long whitespace run) are rare and are
// encoded directly: the cache holds words, not blobs.
const PIECE_CACHE_MAX_LENGTH = 64;
const pieceCaches = new Map<Encoding, { pattern: RegExp; tokens: Map<string, readonly number[]> }>();

function pieceCache(encoding: Encoding) {
  let cache = pieceCaches.get(encoding);
  if (!cache) {
    cache = { pattern: new RegExp(getEncoder(encoding).pattern, 'gu'), tokens: new Map() };
    pieceCaches.set(encoding, cache);
  }
  return cache;
}

// Calls `each` with the tokens of every piece of `text`, in order.
function forEachPiece(text: string, encoding: Encoding, each: (tokens: readonly number[]) => void): void {
  const { pattern, tokens } = pieceCache(encoding);
  const enc = getEncoder(encoding);
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const piece = m[0];
    if (piece.length > PIECE_CACHE_MAX_LENGTH) {
      each(enc.encode(piece));
      continue;
    }
    let t = tokens.get(piece);
    if (t === undefined) {
      t = enc.encode(piece);
      if (tokens.size >= PIECE_CACHE_LIMIT) tokens.clear();
      tokens.set(piece, t);
    }
    each(t);
  }
}

// Special-token strings such as "<|endoftext|>" are encoded as ordinary text: the inputs are
// books and model outputs, never control sequences.
export function encodeTokens(text: string, encoding: Encoding = DEFAULT_ENCODING): number[] {
  const out: number[] = [];
  forEachPiece(text, encoding, (tokens) => {
    for (const t of tokens) out.push(t);
  });
  return out;
}

export function decodeTokens(tokens: readonly number[], encoding: Encoding = DEFAULT_ENCODING): string {
  return getEncoder(encoding).decode(tokens);
}

export function countTokens(text: string, encoding: Encoding = DEFAULT_ENCODING): number {
  let n = 0;
  forEachPiece(text, encoding, (tokens) => {
    n += tokens.length;
  });
  return n;
}

// Character offset (UTF-16, into `text`) where each token starts, plus a final entry equal to
// text.length. A token holding only part of a multi-byte character starts at that character,
// so slicing between any two offsets never cuts a character in half.
export function tokenOffsets(
  text: string,
  tokens: readonly number[],
  encoding: Encoding = DEFAULT_ENCODING,
): number[] {
  const enc = getEncoder(encoding);
  const offsets = new Array<number>(tokens.length + 1);
  let pos = 0;
  let groupStart = 0;
  for (let i = 0; i < tokens.length; i++) {
    offsets[i] = Math.min(pos, text.length);
    // Grow the group until its bytes decode to exactly the next characters of the text.
    const decoded = enc.decode(tokens.slice(groupStart, i + 1));
    if (text.startsWith(decoded, pos) || i + 1 - groupStart >= 8) {
      pos += decoded.length;
      groupStart = i + 1;
    }
  }
  offsets[tokens.length] = text.length;
  return offsets;
}
