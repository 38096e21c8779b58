import { inParallel } from './in-parallel.js';

// Load for the REST benches: `requests` GETs with an API key, `concurrency` in flight at once;
// each latency in ms, sorted.
export async function load(
  url: string,
  key: string,
  requests: number,
  concurrency: number,
): Promise<number[]> {
  const times: number[] = [];
  await inParallel(requests, concurrency, async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    times.push(performance.now() - t);
  });
  return times.sort((a, b) => a - b);
}

// The p-th percentile of sorted latencies.
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
