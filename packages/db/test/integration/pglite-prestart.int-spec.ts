// The embedded database's own thread: started early (the CLI does, before loading its modules)
// and taken over by createDataSource, or closed when no command used it; errors and closing seen
// through the thread as they were in-process. Needs the build (the thread runs dist/).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { createDataSource, PGLITE_LOCK_FILE } from '../../src/index.js';
import { PgliteSession } from '../../src/pglite/pglite-session.js';
import { closePrestartedPglite, prestartPglite } from '../../src/pglite-prestart.js';

describe('the embedded database thread', () => {
  const root = mkdtempSync(join(tmpdir(), 'precis-prestart-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const lockOf = (dir: string) => join(dir, PGLITE_LOCK_FILE);

  it('is started early, holds the lock at once, and is taken over by createDataSource', async () => {
    const dir = join(root, 'early');
    prestartPglite(dir);
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(String(process.pid));
    const ds = await createDataSource({ pgliteDir: dir });
    try {
      expect((await ds.query('SELECT count(*)::int AS n FROM runs'))[0].n).toBe(0);
    } finally {
      await ds.destroy();
    }
    expect(existsSync(lockOf(dir))).toBe(false);
  });

  it('when no command took it over, removes what it created, or closes an existing database', async () => {
    const home = join(root, 'unused-home');
    prestartPglite(join(home, 'db'));
    await closePrestartedPglite();
    expect(existsSync(home)).toBe(false);

    const dir = join(root, 'existing');
    await (await createDataSource({ pgliteDir: dir })).destroy();
    prestartPglite(dir);
    await closePrestartedPglite();
    expect(existsSync(lockOf(dir))).toBe(false);
    const ds = await createDataSource({ pgliteDir: dir });
    try {
      expect((await ds.query('SELECT count(*)::int AS n FROM runs'))[0].n).toBe(0);
    } finally {
      await ds.destroy();
    }
  });

  it('gives way to a createDataSource for another directory', async () => {
    const early = join(root, 'not-this');
    prestartPglite(early);
    const ds = await createDataSource({ pgliteDir: join(root, 'this') });
    try {
      expect(existsSync(lockOf(early))).toBe(false);
      expect(readFileSync(lockOf(join(root, 'this')), 'utf8')).toBe(String(process.pid));
    } finally {
      await ds.destroy();
    }
  });

  it('passes a database error with its fields, and answers nothing once closed', async () => {
    const ds = await createDataSource({ inMemory: true });
    try {
      const failed = await ds.query('SELECT 1 / 0').catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(QueryFailedError);
      expect((failed as QueryFailedError).message).toBe('division by zero');
      expect((failed as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('22012');
      expect((await ds.query('SELECT 2 AS two'))[0].two).toBe(2);
    } finally {
      await ds.destroy();
    }
    const session = new PgliteSession({});
    await session.request({ op: 'ready' });
    await session.kill();
    await expect(session.request({ op: 'exec', sql: 'SELECT 1' })).rejects.toThrow(
      'the embedded database is closed',
    );
  });
});
