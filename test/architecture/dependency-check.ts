// Checks a workspace's imports against the layer rules of docs/architecture.md and against its
// own package.json. Pure: it works on files already read, so a test can feed it a tiny example.
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';
import type { ArchitectureRules } from './architecture-rules.js';

export interface SourceFile {
  // Repository-relative, with forward slashes.
  path: string;
  text: string;
}

export interface Workspace {
  name: string;
  // Repository-relative folder, e.g. packages/engine.
  folder: string;
  // dependencies, peerDependencies and optionalDependencies (what its source may import).
  dependencies: string[];
  files: SourceFile[];
}

export type RuleName =
  | 'unmapped-package'
  | 'app-imports-app'
  | 'package-imports-app'
  | 'layer'
  | 'pure-io'
  | 'undeclared'
  | 'unused'
  | 'relative-escape'
  | 'stale-exception';

export interface Violation {
  rule: RuleName;
  // The file (or package.json / the doc) where it happens.
  file: string;
  message: string;
}

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.[cm]?tsx?$/;
const BUILTINS = new Set(builtinModules);

// Every module a file imports: import/export-from, side-effect imports, import() and require().
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

export const isBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!);

// '@scope/name/sub' -> '@scope/name'; 'name/sub' -> 'name'.
export const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

// A workspace's own code: under src/, not a test. Tests may use devDependencies and any layer.
export const isSource = (ws: Workspace, path: string) =>
  path.startsWith(`${ws.folder}/src/`) && !TEST_FILE.test(path);

const isApp = (ws: Pick<Workspace, 'folder'>) => ws.folder.startsWith('apps/');

interface Context {
  rules: ArchitectureRules;
  byName: Map<string, Workspace>;
  layerOf: Map<string, string>;
  used: Set<string>;
}

// The rule an import of another workspace breaks, if any.
function workspaceImport(
  ctx: Context,
  ws: Workspace,
  file: string,
  spec: string,
  target: Workspace,
): Violation | undefined {
  const name = target.name;
  const at = `${file} imports '${spec}'`;
  if (isApp(target) && isApp(ws))
    return { rule: 'app-imports-app', file, message: `${at}: an app never imports another app` };
  if (isApp(target))
    return { rule: 'package-imports-app', file, message: `${at}: a library never imports an app` };
  if (!isSource(ws, file)) return undefined;
  const from = ctx.layerOf.get(ws.name);
  const to = ctx.layerOf.get(name);
  if (!from || !to || ctx.rules.layers.get(from)!.mayImport.has(to)) return undefined;
  const exception = ctx.rules.exceptions.find((e) => e.from === ws.name && e.to === name);
  if (exception) {
    ctx.used.add(`${exception.from} -> ${exception.to}`);
    return undefined;
  }
  const allowed = [...ctx.rules.layers.get(from)!.mayImport].join(', ') || 'nothing';
  return {
    rule: 'layer',
    file,
    message: `${at} (layer "${to}"): layer "${from}" may import only ${allowed}; move the code or list an allowed exception`,
  };
}

// The pure layers' other modules: no I/O (node:fs, node:net, pg, typeorm, nats, openai ...).
function moduleImport(ctx: Context, ws: Workspace, file: string, spec: string): Violation | undefined {
  const layer = ctx.layerOf.get(ws.name);
  const modules = layer ? ctx.rules.layers.get(layer)!.modules : 'any';
  if (modules === 'any' || !isSource(ws, file)) return undefined;
  const name = isBuiltin(spec) ? `node:${spec.replace(/^node:/, '')}` : packageOf(spec);
  if (modules.includes(name)) return undefined;
  return {
    rule: 'pure-io',
    file,
    message: `${file} imports '${spec}': layer "${layer}" does no I/O and may import only ${modules.join(', ')}`,
  };
}

// A relative import into another workspace's folder: into an app it breaks the app rules; from
// source into a library it bypasses the package (tests may share another library's helpers).
function relativeEscape(ctx: Context, ws: Workspace, file: string, spec: string): Violation | undefined {
  const path = posix.normalize(posix.join(posix.dirname(file), spec));
  const other = [...ctx.byName.values()].find((w) => w !== ws && path.startsWith(`${w.folder}/`));
  if (!other) return undefined;
  if (isApp(other)) return workspaceImport(ctx, ws, file, spec, other);
  if (!isSource(ws, file)) return undefined;
  return {
    rule: 'relative-escape',
    file,
    message: `${file} imports '${spec}': it reaches into ${other.folder} by path; import ${other.name} instead`,
  };
}

function fileViolations(ctx: Context, ws: Workspace, file: SourceFile, imported: Set<string>): Violation[] {
  const out: Violation[] = [];
  for (const spec of importsOf(file.text)) {
    if (spec.startsWith('.')) {
      const reach = relativeEscape(ctx, ws, file.path, spec);
      if (reach) out.push(reach);
      continue;
    }
    const name = packageOf(spec);
    const target = ctx.byName.get(name);
    if (target === ws) continue;
    const broken = target
      ? workspaceImport(ctx, ws, file.path, spec, target)
      : moduleImport(ctx, ws, file.path, spec);
    if (broken) out.push(broken);
    if (!isSource(ws, file.path) || isBuiltin(spec)) continue;
    imported.add(name);
    if (!ws.dependencies.includes(name))
      out.push({
        rule: 'undeclared',
        file: file.path,
        message: `${file.path} imports '${spec}' but ${ws.folder}/package.json does not declare ${name} in its dependencies`,
      });
  }
  return out;
}

// Declared, never imported by the workspace's source, and not loaded by name at run time.
function unusedDependencies(ctx: Context, ws: Workspace, imported: Set<string>): Violation[] {
  const loaded = (dep: string) =>
    ctx.rules.loadedByName.some((l) => l.workspace === ws.name && l.dependency === dep);
  return ws.dependencies
    .filter((dep) => !imported.has(dep) && !loaded(dep))
    .map((dep) => ({
      rule: 'unused' as const,
      file: `${ws.folder}/package.json`,
      message: `${ws.folder}/package.json declares ${dep} but nothing under ${ws.folder}/src imports it; remove it (tests use devDependencies)`,
    }));
}

// Every workspace in the map and every map entry a workspace, in the folder the map says.
function mapViolations(rules: ArchitectureRules, workspaces: Workspace[]): Violation[] {
  const out: Violation[] = [];
  const doc = 'docs/architecture.md';
  for (const ws of workspaces) {
    const entry = rules.packages.find((p) => p.name === ws.name);
    if (!entry || entry.folder !== ws.folder)
      out.push({
        rule: 'unmapped-package',
        file: doc,
        message: `${ws.name} (${ws.folder}) is not in the Packages table of ${doc}${entry ? ` (listed under ${entry.folder})` : ''}; add it with its layer`,
      });
  }
  for (const entry of rules.packages)
    if (!workspaces.some((w) => w.name === entry.name))
      out.push({
        rule: 'unmapped-package',
        file: doc,
        message: `${doc} lists ${entry.name} (${entry.folder}), which is not a workspace; remove the row`,
      });
  return out;
}

export function checkDependencies(rules: ArchitectureRules, workspaces: Workspace[]): Violation[] {
  const ctx: Context = {
    rules,
    byName: new Map(workspaces.map((w) => [w.name, w])),
    layerOf: new Map(rules.packages.map((p) => [p.name, p.layer])),
    used: new Set(),
  };
  const out = mapViolations(rules, workspaces);
  const imported = new Map<string, Set<string>>();
  for (const ws of workspaces) {
    imported.set(ws.name, new Set());
    for (const file of ws.files) out.push(...fileViolations(ctx, ws, file, imported.get(ws.name)!));
    out.push(...unusedDependencies(ctx, ws, imported.get(ws.name)!));
  }
  return [...out, ...staleRows(ctx, imported)];
}

// Rows of the doc's exception tables that no longer excuse anything.
function staleRows(ctx: Context, imported: Map<string, Set<string>>): Violation[] {
  const stale = (message: string): Violation => ({
    rule: 'stale-exception',
    file: 'docs/architecture.md',
    message,
  });
  const out: Violation[] = [];
  for (const l of ctx.rules.loadedByName) {
    if (!ctx.byName.get(l.workspace)?.dependencies.includes(l.dependency))
      out.push(
        stale(`${l.workspace} does not declare ${l.dependency} any more; remove its "loaded by name" row`),
      );
    else if (imported.get(l.workspace)?.has(l.dependency))
      out.push(stale(`${l.workspace} imports ${l.dependency}; remove its "loaded by name" row`));
  }
  for (const e of ctx.rules.exceptions)
    if (!ctx.used.has(`${e.from} -> ${e.to}`))
      out.push(
        stale(`the allowed exception ${e.from} -> ${e.to} matches no import any more; remove its row`),
      );
  return out;
}
