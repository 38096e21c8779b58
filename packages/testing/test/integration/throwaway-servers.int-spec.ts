// The throwaway servers outage tests rely on: stop() makes clients fail, start() brings the same
// server (port, data) back.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import {
  startThrowawayNats,
  startThrowawayPostgres,
  type ThrowawayNats,
  type ThrowawayPostgres,
} from '@precis/testing';
import pg from 'pg';

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('throwaway PostgreSQL', () => {
  let server: ThrowawayPostgres;
  beforeAll(async () => {
    server = await startThrowawayPostgres();
  });
  afterAll(() => server.dispose());

  it('keeps its data across stop() and start() on the same port', async () => {
    const url = await server.createDatabase('keep');
    await query(url, 'CREATE TABLE t (n int); INSERT INTO t VALUES (7)');
    await server.stop();
    expect(server.running).toBe(false);
    await expect(query(url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(await query(url, 'SELECT n FROM t')).toEqual([{ n: 7 }]);
  });

  it('starts a second server from the same initdb', async () => {
    const other = await startThrowawayPostgres();
    try {
      expect(other.port).not.toBe(server.port);
      expect(await query(other.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await other.dispose();
    }
    expect(other.running).toBe(false);
  });
});

describe('throwaway NATS', () => {
  let server: ThrowawayNats;
  beforeAll(async () => {
    server = await startThrowawayNats();
  });
  afterAll(() => server.dispose());

  it('keeps JetStream streams across stop() and start()', async () => {
    let nc = await connect({ servers: server.url });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'KEEP', subjects: ['keep.>'] });
    await nc.close();
    await server.stop();
    await expect(connect({ servers: server.url, reconnect: false })).rejects.toThrow();
    await server.start();
    nc = await connect({ servers: server.url });
    const names = [];
    for await (const name of (await jetstreamManager(nc)).streams.names()) names.push(name);
    expect(names).toEqual(['KEEP']);
    await nc.close();
  });
});
