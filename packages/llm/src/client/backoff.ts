// Retry delays. Without a Retry-After: "full jitter" exponential backoff,
// uniform in [0, min(max, base * 2^(attempt-1))]. With one: at least the server's delay,
// plus up to 10% (capped at 1 s) of jitter so callers refused together do not return together.
export function backoffDelayMs(
  attempt: number,
  opts: { baseMs: number; maxMs: number; retryAfterMs?: number | null },
  random: () => number = Math.random,
): number {
  if (opts.retryAfterMs !== undefined && opts.retryAfterMs !== null && opts.retryAfterMs >= 0) {
    return Math.ceil(opts.retryAfterMs + random() * Math.min(1000, opts.retryAfterMs * 0.1));
  }
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

// Retry-After (seconds or HTTP date) and OpenAI's retry-after-ms; the larger wins. Null when absent.
export function parseRetryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now: number = Date.now(),
): number | null {
  if (!headers) return null;
  let best: number | null = null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) best = Number(ms);
  const ra = headers.get('retry-after');
  if (ra !== null && ra.trim() !== '') {
    const secs = Number(ra);
    let v: number | null = null;
    if (Number.isFinite(secs) && secs >= 0) v = secs * 1000;
    else {
      const date = Date.parse(ra);
      if (!Number.isNaN(date)) v = Math.max(0, date - now);
    }
    if (v !== null) best = best === null ? v : Math.max(best, v);
  }
  return best;
}
