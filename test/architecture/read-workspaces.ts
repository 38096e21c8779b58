// Reads the npm workspaces of the repository (root package.json "workspaces") with their
// package.json dependencies and every script file under their folders.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceFile, Workspace } from './dependency-check.js';

const SKIPPED = new Set(['node_modules', 'dist', '.turbo', '.precis']);
const SCRIPT = /\.([cm]?[jt]s|tsx)$/;

function filesUnder(root: string, folder: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(join(root, folder))) {
    if (SKIPPED.has(entry)) continue;
    const path = `${folder}/${entry}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...filesUnder(root, path));
    else if (SCRIPT.test(entry) && !entry.endsWith('.d.ts'))
      out.push({ path, text: readFileSync(join(root, path), 'utf8') });
  }
  return out;
}

// "packages/*" -> every folder of packages/ with a package.json; "bench" -> bench.
function workspaceFolders(root: string, patterns: string[]): string[] {
  return patterns.flatMap((p) => {
    if (!p.endsWith('/*')) return [p];
    const parent = p.slice(0, -2);
    return readdirSync(join(root, parent))
      .map((d) => `${parent}/${d}`)
      .filter((d) => existsSync(join(root, d, 'package.json')));
  });
}

export function readWorkspaces(root: string): Workspace[] {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaceFolders(root, rootPkg.workspaces).map((folder) => {
    const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const dependencies = Object.keys({
      ...pkg.dependencies,
      ...pkg.peerDependencies,
      ...pkg.optionalDependencies,
    });
    return { name: pkg.name, folder, dependencies, files: filesUnder(root, folder) };
  });
}
