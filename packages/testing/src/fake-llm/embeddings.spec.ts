import { describe, expect, it } from '@jest/globals';
import { fakeEmbedding } from './embeddings.js';
import { hashSeed, seededRandom } from './rng.js';

// The definition, drawn afresh: each word's pseudo-random vector summed, then unit length.
function drawn(words: string[], dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of words) {
    const rnd = seededRandom(hashSeed(`w:${w}`));
    for (let i = 0; i < dim; i++) v[i]! += rnd() * 2 - 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

describe('fakeEmbedding', () => {
  it('gives the drawn vector whether its words were seen before or not', () => {
    const text = 'The lighthouse keeper kept the LIGHT lit';
    const words = ['the', 'lighthouse', 'keeper', 'kept', 'the', 'light', 'lit'];
    const first = fakeEmbedding(text, 32);
    expect(first).toEqual(drawn(words, 32));
    expect(fakeEmbedding(text, 32)).toEqual(first);
    // Vectors are kept per dimension: another one gives its own drawn vector.
    expect(fakeEmbedding(text, 8)).toEqual(drawn(words, 8));
  });
});
