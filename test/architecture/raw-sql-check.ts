// Finds raw SQL (`.query(` calls) outside the stores: every package and app (bar the database
// layer and the test helpers) reaches the database through small store files (a name containing
// "store") and migrations.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface SqlFile {
  // Relative to the repository root, with forward slashes.
  path: string;
  text: string;
}

const QUERY_CALL = /\.query\(/;
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

// Whether a file may hold raw SQL: a store or a migration.
export const mayHoldSql = (path: string): boolean =>
  basename(path).includes('store') || path.split('/').includes('migrations');

// Each `.query(` outside a store or migration, as `path:line: code`.
export function rawSqlOutsideStores(files: readonly SqlFile[]): string[] {
  return files
    .filter((f) => !mayHoldSql(f.path))
    .flatMap((f) =>
      f.text
        .split('\n')
        .flatMap((line, i) => (QUERY_CALL.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])),
    );
}

// The non-test TypeScript files under a folder (relative to root), recursively.
function sourcesUnder(root: string, folder: string): SqlFile[] {
  return readdirSync(join(root, folder)).flatMap((entry) => {
    const path = `${folder}/${entry}`;
    if (statSync(join(root, path)).isDirectory()) return sourcesUnder(root, path);
    if (!entry.endsWith('.ts') || entry.endsWith('.d.ts') || TEST_FILE.test(entry)) return [];
    return [{ path, text: readFileSync(join(root, path), 'utf8') }];
  });
}

// The source folders left unguarded, each with why.
export const UNGUARDED_FOLDERS = [
  'packages/db/src', // the database layer itself: data sources, throwaway databases, pglite worker
  'packages/testing/src', // test helpers: the fake LLM server, throwaway PostgreSQL and NATS servers
];

// The `src` folders of the folders under `parent` (relative to root) that have one.
function srcFoldersUnder(root: string, parent: string): string[] {
  return readdirSync(join(root, parent))
    .map((d) => `${parent}/${d}/src`)
    .filter((d) => statSync(join(root, d), { throwIfNoEntry: false })?.isDirectory());
}

// Every packages/<lib>/src, packages/families/<family>/src and apps/<app>/src, less the
// unguarded ones.
export function guardedFolders(root: string): string[] {
  return ['packages', 'packages/families', 'apps']
    .flatMap((parent) => srcFoldersUnder(root, parent))
    .filter((d) => !UNGUARDED_FOLDERS.includes(d));
}

// The non-test sources of every guarded folder.
export function guardedSources(root: string): SqlFile[] {
  return guardedFolders(root).flatMap((d) => sourcesUnder(root, d));
}
