import { seededRandom } from './rng.js';
import type { FakeFault, FakeFaultFilter, FakeRandomFaults } from './types.js';

interface ScriptedFault {
  fault: FakeFault;
  remaining: number;
  filter: FakeFaultFilter;
}

const DEFAULT_RANDOM_KINDS: FakeFault[] = [
  { kind: 'rate-limit', retryAfterSeconds: 1 },
  { kind: 'server-error' },
  { kind: 'unavailable' },
];

// Which requests fail and how: scripted faults (next N matching requests) take precedence over
// random ones drawn with a seeded RNG, so a test run is reproducible.
export class FaultPlan {
  private scripted: ScriptedFault[] = [];
  private random: FakeRandomFaults | undefined;
  private rnd: () => number = Math.random;

  constructor(random?: FakeRandomFaults) {
    this.setRandom(random);
  }

  setRandom(random: FakeRandomFaults | undefined): void {
    if (random && !(random.probability >= 0 && random.probability <= 1)) {
      throw new Error(`randomFaults.probability must be within 0..1, got ${random.probability}`);
    }
    this.random = random;
    this.rnd = seededRandom(random?.seed ?? 1);
  }

  inject(fault: FakeFault, count = 1, filter: FakeFaultFilter = {}): void {
    if (!Number.isInteger(count) || count < 1) throw new Error(`fault count must be a positive integer`);
    this.scripted.push({ fault, remaining: count, filter });
  }

  clear(): void {
    this.scripted = [];
    this.setRandom(undefined);
  }

  pending(): number {
    return this.scripted.reduce((n, s) => n + s.remaining, 0);
  }

  draw(path: string, model: string | null): FakeFault | null {
    const hit = this.scripted.find((s) => matches(s.filter, path, model));
    if (hit) {
      hit.remaining--;
      if (hit.remaining === 0) this.scripted.splice(this.scripted.indexOf(hit), 1);
      return hit.fault;
    }
    const r = this.random;
    if (!r || r.probability === 0 || !matches(r.filter ?? {}, path, model)) return null;
    if (this.rnd() >= r.probability) return null;
    const kinds = r.kinds?.length ? r.kinds : DEFAULT_RANDOM_KINDS;
    return kinds[Math.floor(this.rnd() * kinds.length)] ?? null;
  }
}

function matches(f: FakeFaultFilter, path: string, model: string | null): boolean {
  return (f.path === undefined || f.path === path) && (f.model === undefined || f.model === model);
}
