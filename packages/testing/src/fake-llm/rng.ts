import { createHash } from 'node:crypto';

// mulberry32: a tiny seeded PRNG so fault draws are reproducible from a seed.
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 32-bit seed derived from a string (stable across processes).
export function hashSeed(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}
