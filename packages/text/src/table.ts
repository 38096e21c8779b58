// A fixed-width text table: columns padded to their widest cell, two spaces apart. `ruler`
// underlines the header with dashes; `trimEnd` drops the padding after each line's last cell.
export function formatTextTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  opts: { ruler?: boolean; trimEnd?: boolean } = {},
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => {
    const text = cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    return opts.trimEnd === false ? text : text.trimEnd();
  };
  const lines = [line(headers)];
  if (opts.ruler) lines.push(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) lines.push(line(r));
  return lines.join('\n');
}
