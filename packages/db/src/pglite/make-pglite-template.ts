// Builds the embedded database template (see pglite-template.ts): a database in a scratch
// directory with every migration applied, kept as a directory next to a manifest naming those
// migrations. Run by this package's build.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource } from '../create-data-source.js';
import { migrationNames, PGLITE_TEMPLATE, PGLITE_TEMPLATE_MANIFEST } from './pglite-template.js';

// Made from scratch each time: an older template must not be the start of the new one.
rmSync(PGLITE_TEMPLATE, { recursive: true, force: true });
rmSync(PGLITE_TEMPLATE_MANIFEST, { force: true });
const scratch = mkdtempSync(join(tmpdir(), 'precis-pglite-template-'));
try {
  const migrated = await createDataSource({ pgliteDir: scratch, runMigrations: true });
  // Closed cleanly, which also removes our lock file: the directory holds the database only.
  await migrated.destroy();
  cpSync(scratch, PGLITE_TEMPLATE, { recursive: true });
  writeFileSync(PGLITE_TEMPLATE_MANIFEST, `${JSON.stringify({ migrations: migrationNames() }, null, 1)}\n`);
  console.log(`built ${PGLITE_TEMPLATE} (${migrationNames().length} migrations)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
