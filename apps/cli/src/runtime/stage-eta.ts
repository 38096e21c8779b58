// Time left for a stage from its observed rate over a moving window: the rate of the last
// `windowMs` follows slow-downs (a rate-limited endpoint) better than the rate since the start.
export class StageEta {
  private samples: { t: number; finished: number }[] = [];

  constructor(private readonly windowMs = 30_000) {}

  // Records finished (done + failed) of total at time t (ms); returns the ms left, 0 when the
  // stage has nothing left, or null while no rate is known (nothing finished in the window yet).
  update(t: number, finished: number, total: number): number | null {
    this.samples.push({ t, finished });
    // Keep one sample at or before the window's start, so the window always spans windowMs.
    while (this.samples.length > 2 && t - this.samples[1]!.t >= this.windowMs) this.samples.shift();
    const remaining = total - finished;
    if (remaining <= 0) return 0;
    const first = this.samples[0]!;
    const dt = t - first.t;
    const dn = finished - first.finished;
    if (dt <= 0 || dn <= 0) return null;
    return (remaining * dt) / dn;
  }
}

// 'ETA 45s', 'ETA 1m 20s', 'ETA 2h 05m', or 'ETA --' when unknown.
export function formatEta(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return 'ETA --';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `ETA ${s}s`;
  if (s < 3600) return `ETA ${Math.floor(s / 60)}m ${s % 60}s`;
  const m = Math.floor(s / 60);
  return `ETA ${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
