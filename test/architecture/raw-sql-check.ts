// Finds raw SQL (`.query(` calls) outside the stores: in the engine, the families, the CLI and the
// api/meta/service libraries, the database is reached through small store files (a name
// containing "store") and migrations.
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

// The code that reaches the database through stores: the engine, the CLI, the api, meta and
// service libraries. packages/db (entities, migrations), llm, ingest and bus are not guarded.
export const GUARDED_FOLDERS = [
  'packages/engine/src',
  'apps/cli/src',
  'packages/api/src',
  'packages/meta/src',
  'packages/service/src',
];

// The guarded folders and every packages/families/<family>/src.
export function guardedSources(root: string): SqlFile[] {
  const families = readdirSync(join(root, 'packages/families'))
    .map((f) => `packages/families/${f}/src`)
    .filter((d) => statSync(join(root, d), { throwIfNoEntry: false })?.isDirectory());
  return [...GUARDED_FOLDERS, ...families].flatMap((d) => sourcesUnder(root, d));
}
