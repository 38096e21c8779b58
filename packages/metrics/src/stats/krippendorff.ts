// Krippendorff's alpha via the coincidence matrix ("Computing Krippendorff's Alpha-Reliability",
// 2011). Missing values are allowed; units with fewer than two values are not pairable and are
// dropped. alpha = 1 - (n - 1) * sum(o_ck d_ck) / sum(n_c n_k d_ck).

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export type RatingValue = number | string | null | undefined;

export interface KrippendorffResult {
  alpha: number;
  // Pairable values (n in the paper) and units that had at least two values.
  pairableValues: number;
  unitsUsed: number;
  observedDisagreement: number;
  expectedDisagreement: number;
}

function isMissing(v: RatingValue): v is null | undefined {
  return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v));
}

// data[coder][unit]: the reliability data matrix as laid out in Krippendorff's papers.
export function krippendorffAlphaDetailed(
  data: readonly (readonly RatingValue[])[],
  level: AlphaLevel,
): KrippendorffResult {
  if (!['nominal', 'ordinal', 'interval', 'ratio'].includes(level)) {
    throw new RangeError(`unknown level "${level}"; use nominal, ordinal, interval or ratio`);
  }
  const units = Math.max(0, ...data.map((row) => row.length));
  const numeric = level !== 'nominal';
  const valueIndex = new Map<string | number, number>();
  const values: (string | number)[] = [];
  const unitCounts: Map<number, number>[] = [];
  for (let u = 0; u < units; u++) {
    const counts = new Map<number, number>();
    for (let c = 0; c < data.length; c++) {
      const v = data[c]![u];
      if (isMissing(v)) continue;
      if (numeric && (typeof v !== 'number' || !Number.isFinite(v))) {
        throw new RangeError(
          `coder ${c}, unit ${u}: ${level} alpha needs finite numbers, got ${JSON.stringify(v)}`,
        );
      }
      let idx = valueIndex.get(v);
      if (idx === undefined) {
        idx = values.length;
        valueIndex.set(v, idx);
        values.push(v);
      }
      counts.set(idx, (counts.get(idx) ?? 0) + 1);
    }
    unitCounts.push(counts);
  }

  // Order categories by value so the ordinal metric can sum marginals between them.
  const order = values.map((_, i) => i);
  if (numeric) order.sort((a, b) => (values[a] as number) - (values[b] as number));
  const pos = new Array<number>(values.length);
  order.forEach((idx, p) => {
    pos[idx] = p;
  });
  const k = values.length;
  const o: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let unitsUsed = 0;
  for (const counts of unitCounts) {
    let m = 0;
    for (const c of counts.values()) m += c;
    if (m < 2) continue;
    unitsUsed++;
    for (const [a, ca] of counts) {
      for (const [b, cb] of counts) {
        o[pos[a]!]![pos[b]!]! += (ca * (a === b ? cb - 1 : cb)) / (m - 1);
      }
    }
  }
  const sorted = order.map((idx) => values[idx]!);
  const nc = o.map((row) => row.reduce((s, v) => s + v, 0));
  const n = nc.reduce((s, v) => s + v, 0);
  const delta = distanceFunction(level, sorted, nc);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let e = 0; e < k; e++) {
      if (c === e) continue;
      const d = delta(c, e);
      observed += o[c]![e]! * d;
      expected += nc[c]! * nc[e]! * d;
    }
  }
  const result = {
    pairableValues: n,
    unitsUsed,
    observedDisagreement: n > 0 ? observed / n : Number.NaN,
    expectedDisagreement: n > 1 ? expected / (n * (n - 1)) : Number.NaN,
  };
  // No pairable values, or no variation at all: alpha is undefined (0/0).
  if (n < 2 || expected === 0) return { alpha: Number.NaN, ...result };
  return { alpha: 1 - ((n - 1) * observed) / expected, ...result };
}

export function krippendorffAlpha(data: readonly (readonly RatingValue[])[], level: AlphaLevel): number {
  return krippendorffAlphaDetailed(data, level).alpha;
}

// Squared difference functions of the paper, on category positions c, e of the sorted values.
function distanceFunction(
  level: AlphaLevel,
  sorted: readonly (string | number)[],
  nc: readonly number[],
): (c: number, e: number) => number {
  switch (level) {
    case 'nominal':
      return (c, e) => (c === e ? 0 : 1);
    case 'interval':
      return (c, e) => ((sorted[c] as number) - (sorted[e] as number)) ** 2;
    case 'ratio':
      return (c, e) => {
        const a = sorted[c] as number;
        const b = sorted[e] as number;
        return a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
      };
    case 'ordinal': {
      const cumulative = [0];
      for (const v of nc) cumulative.push(cumulative[cumulative.length - 1]! + v);
      return (c, e) => {
        const lo = Math.min(c, e);
        const hi = Math.max(c, e);
        const between = cumulative[hi + 1]! - cumulative[lo]!;
        return (between - (nc[lo]! + nc[hi]!) / 2) ** 2;
      };
    }
  }
}
