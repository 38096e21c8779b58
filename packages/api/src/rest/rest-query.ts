import { BadRequestException } from '@nestjs/common';

// Query values arrive as text, or as a list when a name is repeated: each is checked here, so a
// bad one is a 400 naming the parameter and what it accepts, never a NaN reaching a query.

const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

// The value as the caller sent it, cut so that an error stays short.
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v);

function refuse(name: string, expected: string, received: string): never {
  throw new BadRequestException(`${name}: expected ${expected}, received ${shown(received)}`);
}

// One text value, or undefined when the parameter is absent.
export function queryText(name: string, raw: unknown): string | undefined {
  if (raw === undefined || typeof raw === 'string') return raw;
  if (Array.isArray(raw)) throw new BadRequestException(`${name}: given ${raw.length} times; give it once`);
  throw new BadRequestException(`${name}: expected one text value`);
}

export function queryInt(
  name: string,
  raw: unknown,
  range: { min: number; max: number },
): number | undefined {
  const v = queryText(name, raw);
  if (v === undefined) return undefined;
  const n = INTEGER.test(v) ? Number(v) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) refuse(name, `an integer from ${range.min} to ${range.max}`, v);
  return n;
}

// A number strictly between two bounds (e.g. a significance level).
export function queryFraction(
  name: string,
  raw: unknown,
  range: { above: number; below: number },
): number | undefined {
  const v = queryText(name, raw);
  if (v === undefined) return undefined;
  const n = DECIMAL.test(v) ? Number(v) : Number.NaN;
  if (!(n > range.above && n < range.below))
    refuse(name, `a number between ${range.above} and ${range.below} (both excluded)`, v);
  return n;
}

// Any finite number (e.g. a bound on a score).
export function queryNumber(name: string, raw: unknown): number | undefined {
  const v = queryText(name, raw);
  if (v === undefined) return undefined;
  const n = DECIMAL.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) refuse(name, 'a number', v);
  return n;
}

export function queryChoice<T extends string>(
  name: string,
  raw: unknown,
  values: readonly T[],
): T | undefined {
  const v = queryText(name, raw);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) refuse(name, `one of ${values.join(', ')}`, v);
  return v as T;
}

// `runs=a,b,c`: 1 to 50 run ids (or their first characters).
export function queryRunIds(raw: unknown): string[] {
  const v = queryText('runs', raw);
  if (v === undefined) throw new BadRequestException('runs: give run ids, comma-separated');
  const ids = v
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.length > 50)
    throw new BadRequestException(`runs: give 1 to 50 run ids, comma-separated; received ${ids.length}`);
  return ids;
}
