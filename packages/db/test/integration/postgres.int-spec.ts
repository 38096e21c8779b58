import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  createThrowawayDatabase,
  DatasetEntity,
  databaseKind,
  inTransaction,
  type ThrowawayDatabase,
} from '../../src/index.js';
import { apiKeySuite } from './api-key-suite.js';
import { entitySuite } from './entity-suite.js';

describe('@precis/db on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createThrowawayDatabase('precis_db_pg');
    ds = await createDataSource({ url: db.url });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('connects to PostgreSQL', () => {
    expect(databaseKind(ds)).toBe('postgres');
    expect(ds.isInitialized).toBe(true);
  });

  entitySuite(() => ds);
  apiKeySuite(() => ds);

  it('retries a transaction that lost a serialization conflict', async () => {
    const repo = ds.getRepository(DatasetEntity);
    const row = await repo.save({
      name: 'counter',
      kind: 'text',
      sourcePath: '/c',
      sourceSha256: 'c',
      counts: { n: 0 },
    });
    // Both first attempts read before either writes, so one of them must fail with 40001.
    let readers = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((r) => {
      bothRead = r;
    });
    let attempts = 0;
    const increment = (retries: number) =>
      inTransaction(
        ds,
        async (m) => {
          const first = ++attempts <= 2;
          const current = await m.getRepository(DatasetEntity).findOneByOrFail({ id: row.id });
          if (first) {
            if (++readers === 2) bothRead();
            await barrier;
          }
          await m
            .getRepository(DatasetEntity)
            .update({ id: row.id }, { counts: { n: (current.counts.n ?? 0) + 1 } });
        },
        { isolation: 'SERIALIZABLE', retries },
      );
    await Promise.all([increment(2), increment(2)]);
    expect(attempts).toBe(3);
    expect((await repo.findOneByOrFail({ id: row.id })).counts).toEqual({ n: 2 });

    // Without retries the conflict surfaces.
    attempts = 0;
    readers = 0;
    const second = new Promise<void>((r) => {
      bothRead = r;
    });
    const results = await Promise.allSettled([
      inTransaction(
        ds,
        async (m) => {
          await m.getRepository(DatasetEntity).findOneByOrFail({ id: row.id });
          if (++readers === 2) bothRead();
          await second;
          await m.getRepository(DatasetEntity).update({ id: row.id }, { counts: { n: 10 } });
        },
        { isolation: 'SERIALIZABLE', retries: 0 },
      ),
      inTransaction(
        ds,
        async (m) => {
          await m.getRepository(DatasetEntity).findOneByOrFail({ id: row.id });
          if (++readers === 2) bothRead();
          await second;
          await m.getRepository(DatasetEntity).update({ id: row.id }, { counts: { n: 20 } });
        },
        { isolation: 'SERIALIZABLE', retries: 0 },
      ),
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });

  it('is a no-op to run the migrations again from a second data source', async () => {
    const second = await createDataSource({ url: db.url });
    try {
      expect(await second.showMigrations()).toBe(false);
      expect(await second.runMigrations()).toEqual([]);
    } finally {
      await second.destroy();
    }
  });

  it('explains an unreachable server without echoing the password', async () => {
    const err = await createDataSource({ url: 'postgres://u:secret@127.0.0.1:1/none' }).catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /cannot open PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none/,
    );
    expect((err as Error).message).toMatch(/DATABASE_URL/);
    expect((err as Error).message).not.toContain('secret');
  });
});

describe('createThrowawayDatabase', () => {
  it('creates a database and drops it even while a client is still connected', async () => {
    const db = await createThrowawayDatabase('Precis DB/Drop-Test');
    expect(db.name).toMatch(/^precis_db_drop_test_[a-z0-9]+_[0-9a-f]{8}$/);
    const client = new pg.Client({ connectionString: db.url });
    client.on('error', () => {}); // terminated by drop()
    await client.connect();
    expect((await client.query('SELECT current_database() AS d')).rows[0].d).toBe(db.name);
    await db.drop();
    await db.drop(); // idempotent
    await client.end().catch(() => {});
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    try {
      const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [
        db.name,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
