import { hashSeed, seededRandom } from './rng.js';

// Feature-hashed bag of words: each lower-cased word adds a fixed pseudo-random vector, so the
// vector is a pure function of the text and texts sharing words have a higher cosine similarity
// (useful for retrieval tests). Unit length; text without words hashes as a whole.
export function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const w of words) {
    const rnd = seededRandom(hashSeed(`w:${w}`));
    for (let i = 0; i < dim; i++) v[i] += rnd() * 2 - 1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}

export function toBase64Float32(vector: number[]): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => {
    buf.writeFloatLE(x, i * 4);
  });
  return buf.toString('base64');
}
