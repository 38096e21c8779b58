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
