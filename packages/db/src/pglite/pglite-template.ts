import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../migrations/index.js';

// A new embedded database starts as a copy of a template, a database with every migration applied,
// made when this package is built (make-pglite-template.ts): PGlite's initdb took 5-7 s of a fresh
// `precis run` here. A plain copy of the directory takes 0.3 s, PGlite's own tarball load 1.2 s.
export const PGLITE_TEMPLATE = fileURLToPath(new URL('../pglite-template', import.meta.url));
export const PGLITE_TEMPLATE_MANIFEST = fileURLToPath(new URL('../pglite-template.json', import.meta.url));

export const migrationNames = (): string[] => MIGRATIONS.map((m) => m.name);

// The template's path for a database directory PGlite would initialize, or undefined: the directory
// holds a database already, no template was built, or it was built for other migrations (the
// database is then initialized and migrated as usual).
export function pgliteTemplate(
  dir: string | undefined,
  files = { template: PGLITE_TEMPLATE, manifest: PGLITE_TEMPLATE_MANIFEST },
): string | undefined {
  if (dir === undefined || existsSync(join(dir, 'PG_VERSION'))) return undefined;
  if (!existsSync(join(files.template, 'PG_VERSION')) || !existsSync(files.manifest)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(files.manifest, 'utf8')) as { migrations?: unknown };
    if (JSON.stringify(manifest.migrations) !== JSON.stringify(migrationNames())) return undefined;
    return files.template;
  } catch {
    return undefined;
  }
}
