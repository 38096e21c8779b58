// Exact cost arithmetic. Prices are USD per 1M tokens with at most 4 decimals, so a token costs
// a whole number of 1e-10 USD ("cost units") — the ledger column's scale (numeric(20,10)).
// All sums are done on bigint units; decimals are only produced when formatting.

export const COST_SCALE = 10;
const PRICE_DECIMALS = 4;

// "2.5" -> 25000n (price in 1e-4 USD per 1M tokens). Returns null when not a valid price.
export function parsePrice(value: string | number): bigint | null {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text ?? '');
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > PRICE_DECIMALS) return null;
  return BigInt(m[1]!) * 10n ** BigInt(PRICE_DECIMALS) + BigInt(frac.padEnd(PRICE_DECIMALS, '0') || '0');
}

function numberToPlain(n: number): string | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const s = String(n);
  return /e/i.test(s) ? null : s;
}

// tokens * (USD per 1M tokens) / 1e6, in 1e-10 USD units.
export function costUnits(tokensIn: number, tokensOut: number, priceIn: bigint, priceOut: bigint): bigint {
  return BigInt(tokensIn) * priceIn + BigInt(tokensOut) * priceOut;
}

// A chat call's cost: uncached input x input price + cached input x cached-input price + output
// (reasoning included: providers count it in completion_tokens) x output price.
export function chatCostUnits(
  usage: { promptTokens: number; completionTokens: number; cachedTokens?: number },
  prices: { priceInUnits: bigint; priceCachedInUnits: bigint; priceOutUnits: bigint },
): bigint {
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  return (
    BigInt(usage.promptTokens - cached) * prices.priceInUnits +
    BigInt(cached) * prices.priceCachedInUnits +
    BigInt(usage.completionTokens) * prices.priceOutUnits
  );
}

export function formatCost(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const s = abs.toString().padStart(COST_SCALE + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -COST_SCALE)}.${s.slice(-COST_SCALE)}`;
}

// Inverse of formatCost for any decimal with at most 10 fractional digits (e.g. SQL sums).
export function parseCost(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal cost: "${text}"`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > COST_SCALE) throw new Error(`cost "${text}" has more than ${COST_SCALE} decimals`);
  const units = BigInt(m[2]!) * 10n ** BigInt(COST_SCALE) + BigInt(frac.padEnd(COST_SCALE, '0') || '0');
  return m[1] ? -units : units;
}
