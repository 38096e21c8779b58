export type Ranked<R> = R & { rank: number | null };

// Rows with a score best first (ties by system name), ranked from 1 within their group; rows
// without a score come last in their group, unranked, by system name. Groups keep the order in
// which they first appear (one group unless `group` is given).
export function rankBy<R extends { system: string }>(
  rows: readonly R[],
  score: (r: R) => number | null,
  group: (r: R) => string = () => '',
): Ranked<R>[] {
  const bySystem = (a: R, b: R) => a.system.localeCompare(b.system);
  return groupRows(rows, group).flatMap((members) => {
    const scored = members.map((r) => ({ r, s: score(r) }));
    const ranked = scored
      .filter((x): x is { r: R; s: number } => x.s !== null)
      .sort((a, b) => b.s - a.s || bySystem(a.r, b.r))
      .map((x, i) => ({ rank: i + 1, ...x.r }));
    const rest = scored
      .filter((x) => x.s === null)
      .map((x) => x.r)
      .sort(bySystem)
      .map((r) => ({ rank: null, ...r }));
    return [...ranked, ...rest];
  });
}

// Rows by `key`, groups in the order they first appear, rows in their given order.
export function groupRows<R>(rows: readonly R[], key: (r: R) => string): R[][] {
  const groups = new Map<string, R[]>();
  for (const r of rows) {
    const k = key(r);
    const members = groups.get(k);
    if (members) members.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.values()];
}
