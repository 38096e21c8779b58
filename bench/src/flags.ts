// A benchmark's integer flag, or an error naming the benchmark, the flag and what it got.
export function intFlag(bench: string, name: string, value: string | undefined, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${bench}: --${name} expects an integer >= ${min}, got "${value}"`);
  return n;
}

// A comma-separated list of such integers (`--processes 1,2,4`).
export function intListFlag(bench: string, name: string, text: string, min = 1): number[] {
  return text.split(',').map((v) => intFlag(bench, name, v.trim(), min));
}
