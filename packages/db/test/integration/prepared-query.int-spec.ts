import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DataSource, QueryFailedError } from 'typeorm';
import {
  createDataSource,
  createThrowawayDatabase,
  databaseStatements,
  preparedQuery,
  type ThrowawayDatabase,
} from '../../src/index.js';

const INSERT = 'INSERT INTO prepared_probe (id, n) VALUES ($1, $2) RETURNING id, n';
const COUNT = 'SELECT count(*)::int AS n FROM prepared_probe';

// Prepared statements of this session that preparedQuery named (pg_prepared_statements).
const namedHere = async (ds: DataSource) =>
  (await ds.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'precis_%'`))[0].n;

describe('preparedQuery() on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createThrowawayDatabase('precis_prepared_query');
    // One connection: every statement below runs on the same session.
    ds = await createDataSource({ url: db.url, runMigrations: false, poolSize: 1 });
    await ds.query('CREATE TABLE prepared_probe (id int PRIMARY KEY, n int NOT NULL)');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('returns the rows, counts each statement, and prepares each text once per connection', async () => {
    const before = databaseStatements();
    expect(await preparedQuery(ds, INSERT, [1, 10])).toEqual([{ id: 1, n: 10 }]);
    expect(await preparedQuery(ds, INSERT, [2, 20])).toEqual([{ id: 2, n: 20 }]);
    expect(await preparedQuery(ds, COUNT, [])).toEqual([{ n: 2 }]);
    expect(databaseStatements() - before).toBe(3);
    expect(await namedHere(ds)).toBe(2);
  });

  it("fails as TypeORM's own queries do, with PostgreSQL's code and detail", async () => {
    const err = await preparedQuery(ds, INSERT, [1, 11]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(err).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.', query: INSERT });
    // The statement stays usable after its failure.
    expect(await preparedQuery(ds, INSERT, [3, 30])).toEqual([{ id: 3, n: 30 }]);
  });

  it("runs on a transaction's own connection, so a rollback takes its writes back", async () => {
    await ds
      .transaction(async (m) => {
        expect(await preparedQuery(m, INSERT, [4, 40])).toEqual([{ id: 4, n: 40 }]);
        expect(await preparedQuery(m, COUNT, [])).toEqual([{ n: 4 }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await preparedQuery(ds, COUNT, [])).toEqual([{ n: 3 }]);
  });

  it('prepares again on a new connection after the server ended the old one', async () => {
    const [{ pid }] = await ds.query('SELECT pg_backend_pid() AS pid');
    const admin = await createDataSource({ url: db.url, runMigrations: false, poolSize: 1 });
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.destroy();
    }
    // Statements fail until the pool has dropped the closed connection (as TypeORM's own do).
    let rows: unknown;
    for (let attempt = 0; attempt < 20 && rows === undefined; attempt++) {
      rows = await preparedQuery(ds, COUNT, []).catch(() => new Promise((r) => setTimeout(r, 50)));
    }
    expect(rows).toEqual([{ n: 3 }]);
    expect(await namedHere(ds)).toBe(1);
  });

  it('prepares nothing on a data source created with preparedStatements: false', async () => {
    const plain = await createDataSource({
      url: db.url,
      runMigrations: false,
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      expect(await preparedQuery(plain, COUNT, [])).toEqual([{ n: 3 }]);
      expect(await preparedQuery(plain, INSERT, [5, 50])).toEqual([{ id: 5, n: 50 }]);
      expect(await namedHere(plain)).toBe(0);
    } finally {
      await plain.destroy();
    }
  });
});
