// Normalizes what the drivers return for aggregates: pg gives int8/numeric as strings, PGlite gives
// int8 as numbers, and SUM/MAX over no rows gives null (read as 0).
export function toNumber(value: string | number | bigint | null | undefined): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new TypeError('toNumber: got NaN from the database');
    return value;
  }
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new RangeError(`toNumber: ${value} does not fit a JavaScript number exactly`);
    }
    return Number(value);
  }
  const trimmed = value.trim();
  if (trimmed === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) {
    throw new TypeError(`toNumber: "${value}" is not a number`);
  }
  const n = Number(trimmed);
  // Integers past 2^53 would silently lose digits: refuse instead.
  if (/^[-+]?\d+$/.test(trimmed) && !Number.isSafeInteger(n)) {
    throw new RangeError(`toNumber: ${trimmed} does not fit a JavaScript number exactly`);
  }
  return n;
}
