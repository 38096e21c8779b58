// Builds the embedded database template (see pglite-template.ts): a database in a scratch
// directory with every migration applied, dumped by PGlite as a gzipped tarball next to a
// manifest naming those migrations. Run by this package's build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDataSource } from '../create-data-source.js';
import { migrationNames, PGLITE_TEMPLATE, PGLITE_TEMPLATE_MANIFEST } from './pglite-template.js';

const scratch = mkdtempSync(join(tmpdir(), 'precis-pglite-template-'));
try {
  const migrated = await createDataSource({ pgliteDir: scratch, runMigrations: true });
  await migrated.destroy();
  // Opened bare, so the dump holds the database files only (no lock file of ours).
  const db = new PGlite({ dataDir: scratch });
  await db.waitReady;
  const dump = await db.dumpDataDir('gzip');
  await db.close();
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  writeFileSync(PGLITE_TEMPLATE_MANIFEST, `${JSON.stringify({ migrations: migrationNames() }, null, 1)}\n`);
  console.log(`built ${PGLITE_TEMPLATE} (${dump.size} bytes, ${migrationNames().length} migrations)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
