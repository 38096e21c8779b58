import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { countRows, createDataSource, DatasetEntity, databaseKind, inTransaction } from '../../src/index.js';
import { apiKeySuite } from './api-key-suite.js';
import { entitySuite } from './entity-suite.js';

// One PGlite instance for the whole file (start-up costs ~2.5 s).
describe('@precis/db on PGlite in memory', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await createDataSource({ inMemory: true, pgliteLeaseTimeoutMs: 1500 });
  });

  afterAll(async () => {
    await ds?.destroy();
  });

  it('runs on the embedded engine', async () => {
    expect(databaseKind(ds)).toBe('pglite');
    const [row]: Array<{ v: string }> = await ds.query('SELECT version() AS v');
    expect(row!.v).toMatch(/PGlite/);
  });

  entitySuite(() => ds);
  apiKeySuite(() => ds);

  it('keeps concurrent transactions apart on its single session', async () => {
    const nameA = `conc-a-${randomUUID()}`;
    const nameB = `conc-b-${randomUUID()}`;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const a = inTransaction(ds, async (m) => {
      await m
        .getRepository(DatasetEntity)
        .save({ name: nameA, kind: 'text', sourcePath: '/a', sourceSha256: 'a' });
      await sleep(50);
      throw new Error('roll back A');
    });
    const b = inTransaction(ds, async (m) => {
      await sleep(10);
      await m
        .getRepository(DatasetEntity)
        .save({ name: nameB, kind: 'text', sourcePath: '/b', sourceSha256: 'b' });
    });
    await expect(a).rejects.toThrow('roll back A');
    await b;
    expect(await ds.getRepository(DatasetEntity).countBy({ name: nameA })).toBe(0);
    expect(await ds.getRepository(DatasetEntity).countBy({ name: nameB })).toBe(1);
  });

  it('explains the deadlock of using the DataSource inside a transaction callback', async () => {
    const before = await countRows(ds, DatasetEntity);
    await expect(inTransaction(ds, async () => ds.query('SELECT 1'))).rejects.toThrow(
      /embedded database session.*use the EntityManager/s,
    );
    // The session is usable again afterwards.
    expect(await countRows(ds, DatasetEntity)).toBe(before);
  });

  it('refuses a second embedded database in the same process', async () => {
    await expect(createDataSource({ inMemory: true })).rejects.toThrow(/already open in this process/);
  });
});
