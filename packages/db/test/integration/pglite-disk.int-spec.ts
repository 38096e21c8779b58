import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createDataSource,
  DatasetEntity,
  findSchemaDrift,
  MIGRATIONS,
  MIGRATIONS_TABLE,
  PGLITE_LOCK_FILE,
  resolvePgliteDir,
} from '../../src/index.js';

describe('@precis/db on PGlite on disk', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'precis-db-'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  // Opening an on-disk PGlite costs seconds, so the tests share one directory, in order.
  const home = () => join(root, 'home');
  const exitedPid = async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    return child.pid!;
  };

  it('creates the directory, locks it while open, and keeps data across close and reopen', async () => {
    const env = { PRECIS_HOME: home() };
    const dir = resolvePgliteDir(env);
    expect(existsSync(dir)).toBe(false);

    const first = await createDataSource({ env });
    const lock = join(dir, PGLITE_LOCK_FILE);
    try {
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
      await first.getRepository(DatasetEntity).save({
        name: 'kept',
        kind: 'kgds',
        sourcePath: '/k',
        sourceSha256: 'k',
        counts: { documents: 2 },
      });
    } finally {
      await first.destroy();
    }
    expect(existsSync(lock)).toBe(false);

    // A lock left by a process that died is taken over.
    writeFileSync(lock, String(await exitedPid()));
    const second = await createDataSource({ pgliteDir: dir });
    try {
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
      const kept = await second.getRepository(DatasetEntity).findOneByOrFail({ name: 'kept' });
      expect(kept.counts).toEqual({ documents: 2 });
      const applied: Array<{ n: number }> = await second.query(
        `SELECT count(*)::int AS n FROM "${MIGRATIONS_TABLE}"`,
      );
      expect(applied[0]!.n).toBe(MIGRATIONS.length);
      expect(await findSchemaDrift(second)).toEqual([]);
    } finally {
      await second.destroy();
    }
  });

  it('refuses a directory locked by another live process', async () => {
    const dir = resolvePgliteDir({ PRECIS_HOME: home() });
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, PGLITE_LOCK_FILE), String(sleeper.pid));
      await expect(createDataSource({ pgliteDir: dir })).rejects.toThrow(
        new RegExp(`in use by process ${sleeper.pid}.*DATABASE_URL`),
      );
      expect(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8')).toBe(String(sleeper.pid));
    } finally {
      sleeper.kill();
      rmSync(join(dir, PGLITE_LOCK_FILE), { force: true });
    }
  });

  it('explains a corrupt directory and releases it', async () => {
    const dir = resolvePgliteDir({ PRECIS_HOME: home() });
    writeFileSync(join(dir, 'PG_VERSION'), 'not a version\n');
    rmSync(join(dir, 'global'), { recursive: true, force: true });
    await expect(createDataSource({ pgliteDir: dir })).rejects.toThrow(
      /cannot open the embedded database in .*home.*move it away/,
    );
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
  });

  it('refuses a path that is a file', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    await expect(createDataSource({ pgliteDir: file })).rejects.toThrow(
      /cannot create the embedded database directory/,
    );
  });
});
