import { hashSeed, seededRandom } from './rng.js';

// Feature-hashed bag of words: each lower-cased word adds a fixed pseudo-random vector, so the
// vector is a pure function of the text and texts sharing words have a higher cosine similarity
// (useful for retrieval tests). Unit length; text without words hashes as a whole.
export function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const w of words) {
    const wv = wordVector(w, dim);
    for (let i = 0; i < dim; i++) v[i] += wv[i]!;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}

// Drawing each word's vector anew took 15 of the 20 s a test spent embedding 4,107 PerSphere
// documents; a corpus repeats its words, so they are kept, up to 8M numbers (64 MB) in all.
const wordVectors = new Map<string, Float64Array>();
const MAX_NUMBERS = 8_000_000;
let kept = 0;

function wordVector(word: string, dim: number): Float64Array {
  const key = `${dim}:${word}`;
  let v = wordVectors.get(key);
  if (!v) {
    const rnd = seededRandom(hashSeed(`w:${word}`));
    v = new Float64Array(dim);
    for (let i = 0; i < dim; i++) v[i] = rnd() * 2 - 1;
    if (kept + dim > MAX_NUMBERS) {
      wordVectors.clear();
      kept = 0;
    }
    wordVectors.set(key, v);
    kept += dim;
  }
  return v;
}

export function toBase64Float32(vector: number[]): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => {
    buf.writeFloatLE(x, i * 4);
  });
  return buf.toString('base64');
}
