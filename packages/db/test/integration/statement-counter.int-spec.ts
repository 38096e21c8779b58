import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  createThrowawayDatabase,
  DatasetEntity,
  databaseStatements,
  type ThrowawayDatabase,
} from '../../src/index.js';

describe('databaseStatements()', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createThrowawayDatabase('precis_db_statements');
    ds = await createDataSource({ url: db.url, runMigrations: true });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('counts every statement the process sends, a transaction with its START and COMMIT', async () => {
    const before = databaseStatements();
    await ds.query('SELECT 1');
    expect(databaseStatements() - before).toBe(1);
    await ds.transaction(async (m) => {
      await m.query('SELECT 2');
      await m.getRepository(DatasetEntity).count();
    });
    expect(databaseStatements() - before).toBe(5);
  });
});
