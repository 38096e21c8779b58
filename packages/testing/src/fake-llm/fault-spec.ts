import type { FakeFault, FakeFaultKind } from './types.js';

const KINDS: FakeFaultKind[] = ['rate-limit', 'server-error', 'unavailable', 'hang', 'truncate', 'non-json'];

// "<kind>[:count][@retryAfterSeconds]", e.g. "rate-limit:2@1", "hang", "server-error:3".
export function parseFaultSpec(spec: string): { fault: FakeFault; count: number } {
  const m = /^([a-z-]+)(?::(\d+))?(?:@(\d+(?:\.\d+)?))?$/.exec(spec.trim());
  const kind = m?.[1] as FakeFaultKind | undefined;
  if (!m || !kind || !KINDS.includes(kind)) {
    throw new Error(
      `--fault "${spec}": expected <kind>[:count][@retryAfterSeconds] with kind one of ${KINDS.join(', ')}`,
    );
  }
  const fault: FakeFault = { kind };
  if (m[3] !== undefined) {
    if (kind !== 'rate-limit')
      throw new Error(`--fault "${spec}": @retryAfterSeconds only applies to rate-limit`);
    fault.retryAfterSeconds = Number(m[3]);
  } else if (kind === 'rate-limit') fault.retryAfterSeconds = 1;
  return { fault, count: m[2] === undefined ? 1 : Number(m[2]) };
}
