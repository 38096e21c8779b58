// The built package's template for new embedded databases: a fresh directory starts from it,
// fully migrated; a directory that holds a database, or a template made for other migrations,
// is left to PGlite and the migrations as before. Needs the build (`npx turbo run build`).
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

const dist = new URL('../../dist/', import.meta.url).href;
const { createDataSource, MIGRATIONS, MIGRATIONS_TABLE } = await import(`${dist}index.js`);
const { pgliteTemplate, PGLITE_TEMPLATE } = await import(`${dist}pglite/pglite-template.js`);
const { copyTemplate } = await import(`${dist}pglite/template-copy.js`);

describe('the embedded database template', () => {
  const dir = mkdtempSync(join(tmpdir(), 'precis-template-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a new directory a migrated database, and no template to one that has a database', async () => {
    expect(pgliteTemplate(join(dir, 'db'))).toBe(PGLITE_TEMPLATE);
    const ds = await createDataSource({ pgliteDir: join(dir, 'db') });
    try {
      const applied: { name: string }[] = await ds.query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`);
      expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m: { name: string }) => m.name));
      expect(await ds.showMigrations()).toBe(false);
      expect((await ds.query('SELECT count(*)::int AS n FROM runs'))[0].n).toBe(0);
      // The settings that make it small to copy and quick to start (pglite-worker.ts).
      const [settings] = await ds.query(
        `SELECT current_setting('wal_segment_size') AS wal, current_setting('shared_buffers') AS buffers`,
      );
      expect(settings).toEqual({ wal: '1MB', buffers: '16MB' });
    } finally {
      await ds.destroy();
    }
    expect(pgliteTemplate(join(dir, 'db'))).toBeUndefined();
    expect(pgliteTemplate(undefined)).toBeUndefined();
  });

  it('is not used when it was made for other migrations, or not built', () => {
    const manifest = join(dir, 'older.json');
    writeFileSync(
      manifest,
      JSON.stringify({ migrations: MIGRATIONS.slice(0, -1).map((m: { name: string }) => m.name) }),
    );
    expect(pgliteTemplate(join(dir, 'other'), { template: PGLITE_TEMPLATE, manifest })).toBeUndefined();
    expect(pgliteTemplate(join(dir, 'other'), { template: join(dir, 'none'), manifest })).toBeUndefined();
  });
});

describe('a template copy cut short', () => {
  const dir = mkdtempSync(join(tmpdir(), 'precis-template-cut-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no PG_VERSION yet, so the next open copies the template anew', async () => {
    const db = join(dir, 'db');
    cpSync(join(PGLITE_TEMPLATE, 'global'), join(db, 'global'), { recursive: true });
    writeFileSync(join(db, 'global', 'pg_control'), 'torn');
    expect(pgliteTemplate(db)).toBe(PGLITE_TEMPLATE);
    const ds = await createDataSource({ pgliteDir: db });
    try {
      expect((await ds.query('SELECT count(*)::int AS n FROM datasets'))[0].n).toBe(0);
      expect(await ds.showMigrations()).toBe(false);
    } finally {
      await ds.destroy();
    }
  });
});

// What `npm pack` makes of the template: every empty directory gone.
function removeEmptyDirs(dir: string): string[] {
  const removed = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => removeEmptyDirs(join(dir, e.name)));
  if (readdirSync(dir).length === 0) {
    rmSync(dir, { recursive: true });
    removed.push(dir);
  }
  return removed;
}

describe('a template packed by npm', () => {
  const dir = mkdtempSync(join(tmpdir(), 'precis-template-packed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has lost its empty directories, which the copy makes again: the database opens', async () => {
    const packed = join(dir, 'template');
    cpSync(PGLITE_TEMPLATE, packed, { recursive: true });
    expect(removeEmptyDirs(packed).map((d) => d.slice(packed.length + 1))).toEqual(
      expect.arrayContaining(['pg_tblspc', 'pg_twophase', 'pg_wal/archive_status', 'pg_stat_tmp']),
    );
    const db = join(dir, 'db');
    copyTemplate(packed, db);
    const ds = await createDataSource({ pgliteDir: db });
    try {
      expect((await ds.query('SELECT count(*)::int AS n FROM runs'))[0].n).toBe(0);
      expect(await ds.showMigrations()).toBe(false);
    } finally {
      await ds.destroy();
    }
  });
});
