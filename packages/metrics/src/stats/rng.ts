// Small seeded PRNG so bootstrap results are reproducible across runs and machines.
export type Rng = () => number;

// mulberry32: 32-bit state, uniform floats in [0, 1). Fast and good enough for resampling.
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// FNV-1a hash, so string seeds (run ids, spec names) can seed the generator.
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  if (typeof seed === 'string') return mulberry32(seedFromString(seed));
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number or a string, got ${seed}`);
  return mulberry32(Math.trunc(seed));
}

// Uniform integer in [0, n).
export function randomInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}
