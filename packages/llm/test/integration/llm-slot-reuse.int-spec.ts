// Cluster-wide slots a process keeps for its next call (PgSharedLimits over llm_slots): reused
// without a new claim (also by a call waiting in the process), handed back when idle, on close and
// once past their reuse window, then first to another waiting process; a claim that meets the
// process's own release waits for it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { loadModelRegistry, PgSharedLimits } from '../../src/index.js';

describe('cluster-wide slots kept for reuse', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('llm_slot_reuse');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  // One endpoint per test (the model id), so tests never share slot rows.
  const spec = (modelId: string, maxConcurrency = 1, timeoutMs = 1_000) =>
    loadModelRegistry({
      models: { m: { baseURL: 'http://127.0.0.1:9/v1', model: modelId, maxConcurrency, timeoutMs } },
    }).get('m');
  const slots = async (
    modelId: string,
  ): Promise<{ slot: number; holder: string | null; expires: string | null }[]> =>
    db.query(
      `SELECT slot, holder, expires_at::text AS expires FROM llm_slots WHERE endpoint LIKE $1 ORDER BY slot`,
      [`%|${modelId}`],
    );
  // The one slot of `modelId` is A's again under a new lease: it was claimed through the database.
  const expectNewLease = async (modelId: string, before: { expires: string | null }) => {
    const [now] = await slots(modelId);
    expect(now!.holder).toBe('A');
    expect(now!.expires).not.toBe(before.expires);
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const settled = async (p: Promise<unknown>) => {
    let done = false;
    p.then(() => (done = true)).catch(() => (done = true));
    await sleep(10);
    return done;
  };

  it('serves the next call with the slot just released, without a new claim, then hands it back when idle', async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 300 }, 'A');
    const release = await a.acquireSlot(spec('reuse'));
    const [claimed] = await slots('reuse');
    expect(claimed!.holder).toBe('A');
    release();
    expect(await slots('reuse')).toEqual([claimed]);
    const again = await a.acquireSlot(spec('reuse'));
    // Same lease: no statement claimed it again.
    expect(await slots('reuse')).toEqual([claimed]);
    again();
    for (let i = 0; i < 100 && (await slots('reuse'))[0]!.holder !== null; i++) await sleep(20);
    expect(await slots('reuse')).toEqual([{ slot: 0, holder: null, expires: null }]);
  });

  it('leases a slot for the request timeout (1 s here) + 5 s + the 2 s reuse window', async () => {
    const a = new PgSharedLimits(db, {}, 'A');
    const release = await a.acquireSlot(spec('lease'));
    const [row] = await db.query(
      `SELECT round(EXTRACT(EPOCH FROM expires_at - now()))::int AS s FROM llm_slots WHERE endpoint LIKE '%|lease'`,
    );
    expect(row.s).toBe(8);
    release();
    await a.close();
  });

  it('another process gets an idle slot once the holder stops keeping it', async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 400 }, 'A');
    const b = new PgSharedLimits(db, { pollMs: 5 }, 'B');
    (await a.acquireSlot(spec('handover')))();
    const waiting = b.acquireSlot(spec('handover'));
    expect(await settled(waiting)).toBe(false);
    const release = await waiting;
    expect((await slots('handover')).map((s) => s.holder)).toEqual(['B']);
    release();
    await b.close();
  });

  it('hands a released slot to a call waiting in the same process, under the same lease', async () => {
    const a = new PgSharedLimits(db, { pollMs: 5, idleHoldMs: 60_000 }, 'A');
    const first = await a.acquireSlot(spec('handoff'));
    const [lease] = await slots('handoff');
    const second = a.acquireSlot(spec('handoff'));
    expect(await settled(second)).toBe(false);
    first();
    const release = await second;
    // No statement: the row is as the first claim left it.
    expect(await slots('handoff')).toEqual([lease]);
    release();
    await a.close();
  });

  // Two processes that both have calls waiting: the holder keeps the slot for its own calls only
  // while the lease lasts, then lets the other process's poller have it (no starving).
  it('past its lease, a slot goes back to the database and a waiting process gets it before the holder', async () => {
    const a = new PgSharedLimits(db, { pollMs: 200, reuseWindowMs: 0 }, 'A');
    const b = new PgSharedLimits(db, { pollMs: 5 }, 'B');
    const first = await a.acquireSlot(spec('turns'));
    const second = a.acquireSlot(spec('turns'));
    const other = b.acquireSlot(spec('turns'));
    expect([await settled(second), await settled(other)]).toEqual([false, false]);
    first();
    const releaseB = await other;
    expect((await slots('turns')).map((s) => s.holder)).toEqual(['B']);
    expect(await settled(second)).toBe(false);
    releaseB();
    await b.close();
    const releaseA = await second;
    expect((await slots('turns')).map((s) => s.holder)).toEqual(['A']);
    releaseA();
    await a.close();
  });

  // A slot being given back is locked, and a claim's SKIP LOCKED passes over it: the claim must
  // not take "every slot is held" for an answer then (that turned each call into a wait, a release
  // and a poll's claim: 2,451 slot statements for 2,002 calls in peer-load's cluster run).
  it('a claim that meets its own process releasing the only slot waits for that release, not for a poll', async () => {
    const a = new PgSharedLimits(db, { pollMs: 60_000, reuseWindowMs: 0 }, 'A');
    const first = await a.acquireSlot(spec('releasing'));
    const lock = db.createQueryRunner();
    await lock.startTransaction();
    await lock.query(`SELECT slot FROM llm_slots WHERE endpoint LIKE '%|releasing' FOR UPDATE`);
    // Past its reuse window (0 ms), the slot goes back at once: that UPDATE now waits on the lock.
    first();
    const releaseWaits = async () =>
      (
        await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query LIKE 'UPDATE llm_slots SET holder = NULL%'`,
        )
      ).length > 0;
    for (let i = 0; i < 250 && !(await releaseWaits()); i++) await sleep(20);
    expect(await releaseWaits()).toBe(true);
    const second = a.acquireSlot(spec('releasing'));
    expect(await settled(second)).toBe(false);
    await lock.commitTransaction();
    await lock.release();
    const resolved = await Promise.race([second.then(() => true), sleep(5_000).then(() => false)]);
    expect(resolved).toBe(true);
    expect((await slots('releasing')).map((s) => s.holder)).toEqual(['A']);
    (await second)();
    await a.close();
  });

  it("inserts a new endpoint's slot rows once for the calls that start together", async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 60_000 }, 'A');
    const sent: string[] = [];
    const logQuery = db.logger.logQuery.bind(db.logger);
    db.logger.logQuery = (query, ...rest) => {
      sent.push(query);
      logQuery(query, ...rest);
    };
    try {
      const releases = await Promise.all(Array.from({ length: 8 }, () => a.acquireSlot(spec('together', 8))));
      expect(sent.filter((q) => q.startsWith('INSERT INTO llm_slots')).length).toBe(1);
      expect((await slots('together')).map((s) => s.holder)).toEqual(Array(8).fill('A'));
      for (const release of releases) release();
    } finally {
      db.logger.logQuery = logQuery;
    }
    await a.close();
  });

  it('close() hands back the idle slots at once', async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 60_000 }, 'A');
    const [r1, r2] = await Promise.all([a.acquireSlot(spec('close', 2)), a.acquireSlot(spec('close', 2))]);
    r1!();
    r2!();
    expect((await slots('close')).map((s) => s.holder)).toEqual(['A', 'A']);
    await a.close();
    expect((await slots('close')).map((s) => s.holder)).toEqual([null, null]);
  });

  it("claims a slot again for a call that could outlive the idle slot's lease", async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 60_000 }, 'A');
    (await a.acquireSlot(spec('longer')))();
    const [old] = await slots('longer');
    // The endpoint's timeout was raised to 60 s: the 8 s lease cannot cover such a call.
    const release = await a.acquireSlot(spec('longer', 1, 60_000));
    await expectNewLease('longer', old!);
    release();
    await a.close();
  });

  it('claims a slot again once it is past its reuse window', async () => {
    const a = new PgSharedLimits(db, { idleHoldMs: 60_000, reuseWindowMs: 100 }, 'A');
    (await a.acquireSlot(spec('window')))();
    const [old] = await slots('window');
    await sleep(150);
    const release = await a.acquireSlot(spec('window'));
    await expectNewLease('window', old!);
    release();
    await a.close();
  });
});
