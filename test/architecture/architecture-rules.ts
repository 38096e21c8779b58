// The layer rules of docs/architecture.md, read from its tables: the page people read is the
// one the dependency test enforces, so the two cannot drift apart.

export interface LayerRule {
  // Layers whose packages this layer's source may import (its own only when listed).
  mayImport: Set<string>;
  // Modules outside the workspace the layer's source may import; 'any' when unrestricted.
  modules: string[] | 'any';
}

export interface PackageEntry {
  name: string;
  folder: string;
  layer: string;
  owns: string;
}

export interface AllowedException {
  from: string;
  to: string;
  reason: string;
}

// A dependency declared but never imported because something loads it by name at run time.
export interface LoadedByName {
  workspace: string;
  dependency: string;
  why: string;
}

export interface ArchitectureRules {
  layers: Map<string, LayerRule>;
  packages: PackageEntry[];
  exceptions: AllowedException[];
  loadedByName: LoadedByName[];
}

export class ArchitectureDocError extends Error {}

interface Table {
  line: number;
  rows: { line: number; cells: string[] }[];
}

const cell = (text: string) => text.trim().replace(/`/g, '');
const list = (text: string) =>
  text === '' || text === '—' || text === '-'
    ? []
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

// The first table after the heading `## <title>`, without its header and separator rows.
function tableAfter(lines: string[], title: string, doc: string, columns: number): Table {
  const at = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (at < 0)
    throw new ArchitectureDocError(`${doc}: no "## ${title}" section; the dependency test reads it`);
  let i = at + 1;
  while (i < lines.length && !lines[i]!.trim().startsWith('|') && !lines[i]!.startsWith('## ')) i++;
  if (i >= lines.length || !lines[i]!.trim().startsWith('|'))
    throw new ArchitectureDocError(`${doc}:${at + 1}: "## ${title}" has no table`);
  const table: Table = { line: i + 1, rows: [] };
  for (i += 2; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
    const cells = lines[i]!.trim().slice(1, -1).split('|').map(cell);
    if (cells.length !== columns)
      throw new ArchitectureDocError(
        `${doc}:${i + 1}: the "${title}" table needs ${columns} cells per row, found ${cells.length}`,
      );
    table.rows.push({ line: i + 1, cells });
  }
  return table;
}

function parseLayers(lines: string[], doc: string): Map<string, LayerRule> {
  const layers = new Map<string, LayerRule>();
  const table = tableAfter(lines, 'Layers', doc, 4);
  for (const { cells } of table.rows) {
    const [name, mayImport, modules] = cells as [string, string, string];
    layers.set(name, {
      mayImport: new Set(list(mayImport)),
      modules: modules === 'any' ? 'any' : list(modules),
    });
  }
  for (const { line, cells } of table.rows)
    for (const target of list(cells[1]!))
      if (!layers.has(target))
        throw new ArchitectureDocError(
          `${doc}:${line}: layer "${cells[0]}" may import unknown layer "${target}"`,
        );
  return layers;
}

export function parseArchitecture(markdown: string, doc = 'docs/architecture.md'): ArchitectureRules {
  const lines = markdown.split('\n');
  const layers = parseLayers(lines, doc);
  const packages = tableAfter(lines, 'Packages', doc, 4).rows.map(({ line, cells }) => {
    const [name, folder, layer, owns] = cells as [string, string, string, string];
    if (!layers.has(layer))
      throw new ArchitectureDocError(`${doc}:${line}: ${name} is in unknown layer "${layer}"`);
    return { name, folder, layer, owns };
  });
  const exceptions = tableAfter(lines, 'Allowed exceptions', doc, 3).rows.map(({ cells }) => ({
    from: cells[0]!,
    to: cells[1]!,
    reason: cells[2]!,
  }));
  const loadedByName = tableAfter(lines, 'Dependencies loaded by name', doc, 3).rows.map(({ cells }) => ({
    workspace: cells[0]!,
    dependency: cells[1]!,
    why: cells[2]!,
  }));
  return { layers, packages, exceptions, loadedByName };
}
