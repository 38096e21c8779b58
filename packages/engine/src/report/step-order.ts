// The order a strategy's steps run in, from their keys: h/<level>/<index> by level then index,
// i/0 then i/u/<n> and i/c/<n> by n (update before compression), */clean last. Keys of other
// shapes compare equal, so a stable sort keeps the order they were planned in.

const CLEAN_LAST = [Number.POSITIVE_INFINITY];

// Numbers, not strings: h/0/2 comes before h/0/10.
function stepRank(key: string): number[] {
  const parts = key.split('/');
  if (parts[1] === 'clean') return CLEAN_LAST;
  if (parts[0] === 'h' && parts.length === 3) return [Number(parts[1]), Number(parts[2])];
  if (parts[0] === 'i' && parts[1] === '0') return [0, 0];
  if (parts[0] === 'i' && parts.length === 3) return [Number(parts[2]), parts[1] === 'u' ? 0 : 1];
  return [];
}

// A comparator of step keys for Array.prototype.sort (stable since ES2019).
export function compareStepKeys(a: string, b: string): number {
  const x = stepRank(a);
  const y = stepRank(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
}

// A copy of steps in the order they ran, given each step's key.
export const sortSteps = <T>(steps: readonly T[], keyOf: (step: T) => string): T[] =>
  [...steps].sort((a, b) => compareStepKeys(keyOf(a), keyOf(b)));
